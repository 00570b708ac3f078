// OpenEXR through libopenexr 3.1 (Debian 12). The file is read whole under filterlab's file rules
// (io/input_file.h) and decoded from memory, so the library never opens a path itself; the header
// is checked, and the data window capped at kMaxExrSide a side (Header::setMaxImageSize, which
// the library applies while it reads the header, before it sizes any table), before any pixel is
// decoded. Every sample is read into float slices (half converts exactly); written files are
// ZIP-compressed (lossless) half or float, built in memory and written atomically.
#include "io/image_io.h"
#include "io/input_file.h"

#include <Iex.h>
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfIO.h>
#include <ImfInputFile.h>
#include <ImfOutputFile.h>
#include <ImfVersion.h>
#include <half.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>

namespace filterlab::io {
namespace fs = std::filesystem;

namespace {

class MemoryInput : public Imf::IStream {
 public:
  MemoryInput(const std::string& bytes, const std::string& name)
      : Imf::IStream(name.c_str()), bytes_(bytes) {}
  bool read(char c[], int n) override {
    if (n < 0 || uint64_t(n) > bytes_.size() - std::min<uint64_t>(position_, bytes_.size()))
      throw Iex::InputExc("the file ends early");
    std::memcpy(c, bytes_.data() + position_, size_t(n));
    position_ += uint64_t(n);
    return position_ < bytes_.size();
  }
  uint64_t tellg() override { return position_; }
  void seekg(uint64_t position) override { position_ = position; }  // a read past the end throws

 private:
  const std::string& bytes_;
  uint64_t position_ = 0;
};

class MemoryOutput : public Imf::OStream {
 public:
  MemoryOutput() : Imf::OStream("memory") {}
  void write(const char c[], int n) override {
    if (bytes_.size() < position_ + uint64_t(n)) bytes_.resize(position_ + uint64_t(n));
    std::memcpy(bytes_.data() + position_, c, size_t(n));
    position_ += uint64_t(n);
  }
  uint64_t tellp() override { return position_; }
  void seekp(uint64_t position) override { position_ = position; }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
  uint64_t position_ = 0;
};

void limit_sizes() {
  static std::once_flag once;
  std::call_once(once, [] {
    Imf::Header::setMaxImageSize(int(kMaxExrSide), int(kMaxExrSide));
    Imf::Header::setMaxTileSize(int(kMaxExrSide), int(kMaxExrSide));
  });
}

// The channels filterlab reads, in order: R, G, B and A where the file has R, G and B; Y (and A)
// for a luminance image.
std::vector<std::string> channel_names(const Imf::ChannelList& list) {
  auto has = [&](const char* name) { return list.findChannel(name) != nullptr; };
  if (has("R") && has("G") && has("B"))
    return has("A") ? std::vector<std::string>{"R", "G", "B", "A"} : std::vector<std::string>{"R", "G", "B"};
  if (has("Y")) return {"Y"};
  return {};
}

// The header's attribute list walked before the library reads it: each attribute is a name, a type
// name and a size, and libopenexr allocates the size an attribute of an unknown type claims before
// it reads the value (a fuzzed 400-byte file asked for 1.6 GB). Here every size must fit in the
// bytes the file has left; the library then checks everything else. Multi-part files hold several
// headers, each ended by an empty name, the list by one more.
void check_attribute_sizes(const fs::path& path, const std::string& bytes) {
  uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 4, 4);
  const bool multipart = (version & 0x1000) != 0;
  const size_t max_name = (version & 0x400) ? 255 : 31;
  size_t at = 8;
  auto name = [&](const char* what) {
    const size_t end = bytes.find('\0', at);
    if (end == std::string::npos || end - at > max_name)
      throw InputError(path, std::string("invalid OpenEXR (an attribute ") + what + " that does not end)");
    std::string out = bytes.substr(at, end - at);
    at = end + 1;
    return out;
  };
  for (;;) {    // the headers
    for (;;) {  // one header's attributes, to the empty name that ends it
      if (name("name").empty()) break;
      name("type");
      int32_t size = 0;
      if (bytes.size() - at < 4) throw InputError(path, "invalid OpenEXR (the header ends early)");
      std::memcpy(&size, bytes.data() + at, 4);
      at += 4;
      if (size < 0 || uint64_t(size) > bytes.size() - at)
        throw InputError(path, "invalid OpenEXR (an attribute of " + std::to_string(size) +
                                   " bytes in a file of " + std::to_string(bytes.size()) + ")");
      at += size_t(size);
    }
    if (!multipart) return;
    if (at >= bytes.size()) throw InputError(path, "invalid OpenEXR (the header ends early)");
    if (bytes[at] == '\0') return;  // the empty header that ends a multi-part file's list
  }
}

struct Opened {
  std::string bytes;
  std::optional<MemoryInput> stream;
  std::optional<Imf::InputFile> file;
  ImageHeader header;
  std::vector<std::string> channels;
  Imath::Box2i window;
};

void open_exr(const fs::path& path, Opened& o) {
  limit_sizes();
  o.bytes = read_input_file(path, kMaxImageFileBytes);
  if (o.bytes.size() < 8 || !Imf::isImfMagic(o.bytes.data()))
    throw InputError(path, "invalid OpenEXR (no OpenEXR magic number)");
  check_attribute_sizes(path, o.bytes);
  try {
    o.stream.emplace(o.bytes, path.string());
    o.file.emplace(*o.stream);
    const Imf::Header& h = o.file->header();
    o.window = h.dataWindow();
    const int64_t width = int64_t(o.window.max.x) - o.window.min.x + 1;
    const int64_t height = int64_t(o.window.max.y) - o.window.min.y + 1;
    if (width < 1 || height < 1 || width > kMaxExrSide || height > kMaxExrSide)
      throw InputError(path, "OpenEXR data window of " + std::to_string(width) + "x" +
                                 std::to_string(height) + " pixels (at most " + std::to_string(kMaxExrSide) +
                                 " a side)");
    o.channels = channel_names(h.channels());
    if (o.channels.empty()) throw InputError(path, "OpenEXR without R, G and B or Y channels");
    uint32_t bits = 16;
    for (const std::string& name : o.channels) {
      const Imf::Channel& c = *h.channels().findChannel(name);
      if (c.xSampling != 1 || c.ySampling != 1)
        throw InputError(path, "OpenEXR channel " + name + " is subsampled (not supported)");
      if (c.type != Imf::HALF) bits = 32;
    }
    o.header = {"exr", uint32_t(width), uint32_t(height), uint32_t(o.channels.size()), bits};
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {  // Iex::BaseExc and the library's std::bad_alloc
    throw InputError(path, std::string("invalid OpenEXR (") + e.what() + ")");
  }
}

}  // namespace

ImageHeader read_exr_header(const fs::path& path) {
  Opened o;
  open_exr(path, o);
  return o.header;
}

ImageF read_exr(const fs::path& path) {
  Opened o;
  open_exr(path, o);
  const ImageHeader& h = o.header;
  ImageF image{h.width, h.height, h.channels, {}};
  image.pixels.assign(size_t(h.width) * h.height * h.channels, 0.0f);
  try {
    Imf::FrameBuffer buffer;
    const size_t x_stride = sizeof(float) * h.channels, y_stride = x_stride * h.width;
    for (size_t c = 0; c < o.channels.size(); ++c)
      buffer.insert(o.channels[c], Imf::Slice::Make(Imf::FLOAT, image.pixels.data() + c, o.window, x_stride,
                                                    y_stride, 1, 1, c == 3 ? 1.0 : 0.0));
    o.file->setFrameBuffer(buffer);
    o.file->readPixels(o.window.min.y, o.window.max.y);
  } catch (const std::exception& e) {
    throw InputError(path, std::string("invalid OpenEXR (") + e.what() + ")");
  }
  return image;
}

void write_exr(const fs::path& path, const ImageF& image, ExrSamples samples) {
  if (image.channels < 1 || image.channels > 4 || image.width == 0 || image.height == 0)
    throw IoError("cannot write " + path.string() + ": not an image of 1 to 4 channels");
  static const std::vector<std::vector<const char*>> kNames = {
      {"Y"}, {"R", "G"}, {"R", "G", "B"}, {"R", "G", "B", "A"}};
  const std::vector<const char*>& names = kNames[image.channels - 1];
  const bool half_samples = samples == ExrSamples::Half;
  std::vector<half> halves;
  if (half_samples) halves.assign(image.pixels.begin(), image.pixels.end());  // round to nearest even
  MemoryOutput out;
  try {
    Imf::Header header(int(image.width), int(image.height));
    header.compression() = Imf::ZIP_COMPRESSION;
    Imf::FrameBuffer buffer;
    const size_t sample = half_samples ? sizeof(half) : sizeof(float);
    const size_t x_stride = sample * image.channels, y_stride = x_stride * image.width;
    char* base = half_samples ? reinterpret_cast<char*>(halves.data())
                              : reinterpret_cast<char*>(const_cast<float*>(image.pixels.data()));
    for (uint32_t c = 0; c < image.channels; ++c) {
      header.channels().insert(names[c], Imf::Channel(half_samples ? Imf::HALF : Imf::FLOAT));
      buffer.insert(names[c],
                    Imf::Slice(half_samples ? Imf::HALF : Imf::FLOAT, base + c * sample, x_stride, y_stride));
    }
    Imf::OutputFile file(out, header);
    file.setFrameBuffer(buffer);
    file.writePixels(int(image.height));
  } catch (const std::exception& e) {
    throw IoError("cannot write " + path.string() + ": OpenEXR: " + e.what());
  }
  write_file_atomically(path, out.bytes());
}

}  // namespace filterlab::io
