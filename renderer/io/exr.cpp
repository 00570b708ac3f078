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
#include <map>
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

// The header's attribute list walked before the library reads it. An attribute is a name, a type
// name, a size and a value; libopenexr allocates what an attribute of an unknown type (or a string)
// claims before it reads the value (a fuzzed 400-byte file asked for 1.6 GB), and reads the values
// of the types it knows by their own layout whatever size the file gives them. So here every
// attribute must be exactly as long as it says (a known type's own length: a fixed size, a channel
// list's entries to their end, a preview's pixels) and fit in the bytes the file has left; the
// library then checks everything else. Multi-part files hold several headers, each ended by an
// empty name, the list by one more.
void check_attribute_sizes(const fs::path& path, const std::string& bytes) {
  static const std::map<std::string, int> kFixed = {{"box2i", 16},
                                                    {"box2f", 16},
                                                    {"v2i", 8},
                                                    {"v2f", 8},
                                                    {"v2d", 16},
                                                    {"v3i", 12},
                                                    {"v3f", 12},
                                                    {"v3d", 24},
                                                    {"int", 4},
                                                    {"float", 4},
                                                    {"double", 8},
                                                    {"compression", 1},
                                                    {"lineOrder", 1},
                                                    {"envmap", 1},
                                                    {"tiledesc", 9},
                                                    {"rational", 8},
                                                    {"timecode", 8},
                                                    {"keycode", 28},
                                                    {"chromaticities", 32},
                                                    {"m33f", 36},
                                                    {"m33d", 72},
                                                    {"m44f", 64},
                                                    {"m44d", 128},
                                                    {"deepImageState", 1}};
  auto bad = [&](const std::string& why) { throw InputError(path, "invalid OpenEXR (" + why + ")"); };
  uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 4, 4);
  const bool multipart = (version & 0x1000) != 0;
  const size_t max_name = (version & 0x400) ? 255 : 31;
  size_t at = 8;
  auto text = [&](size_t from, const char* what) {
    const size_t end = bytes.find('\0', from);
    if (end == std::string::npos || end - from > max_name)
      bad(std::string("an attribute ") + what + " that does not end");
    return end;
  };
  for (;;) {    // the headers
    for (;;) {  // one header's attributes, to the empty name that ends it
      const size_t name_end = text(at, "name");
      const std::string name = bytes.substr(at, name_end - at);
      at = name_end + 1;
      if (name.empty()) break;
      const size_t type_end = text(at, "type");
      const std::string type = bytes.substr(at, type_end - at);
      at = type_end + 1;
      int32_t size = 0;
      if (bytes.size() - at < 4) bad("the header ends early");
      std::memcpy(&size, bytes.data() + at, 4);
      at += 4;
      if (size < 0 || uint64_t(size) > bytes.size() - at)
        bad("attribute " + name + " of " + std::to_string(size) + " bytes in a file of " +
            std::to_string(bytes.size()));
      int64_t own = size;  // the bytes the library will read for it
      if (const auto fixed = kFixed.find(type); fixed != kFixed.end()) {
        own = fixed->second;
      } else if (type == "chlist") {  // entries of a name and 16 bytes, to an empty name
        size_t c = at;
        for (;;) {
          const size_t end = text(c, "channel name");
          if (end == c) {
            c = end + 1;
            break;
          }
          c = end + 1 + 16;
          if (c > bytes.size()) bad("the channel list ends early");
        }
        own = int64_t(c - at);
      } else if (type == "preview") {  // width, height, then width x height RGBA bytes
        uint32_t wh[2] = {0, 0};
        if (size >= 8) std::memcpy(wh, bytes.data() + at, 8);
        own = 8 + int64_t(wh[0]) * wh[1] * 4;
      }
      if (own != size)
        bad("attribute " + name + " of type " + type + " says " + std::to_string(size) + " bytes and holds " +
            std::to_string(own));
      at += size_t(size);
    }
    if (!multipart) return;
    if (at >= bytes.size()) bad("the header ends early");
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
