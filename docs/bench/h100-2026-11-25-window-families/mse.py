# MSE (0..255 scale, RGB) of PFM pairs: python3 mse.py A B [A B ...]
import sys, numpy as np
def rpfm(p):
    d = open(p, 'rb').read(); parts = d.split(b'\n', 3)
    w, h = map(int, parts[1].split()); c = 3 if parts[0].strip() == b'PF' else 1
    scale = float(parts[2]); a = np.frombuffer(parts[3], '<f4' if scale < 0 else '>f4')
    return a.reshape(h, w, -1)[::-1].astype(np.float64)
args = sys.argv[1:]
for a, b in zip(args[::2], args[1::2]):
    x, y = rpfm(a)[..., :3], rpfm(b)[..., :3]
    print(f"{a} vs {b}: MSE(0..255) {np.mean((x - y) ** 2) * 255 * 255:.4g}")
