#include "bench_report.h"

#include "filters/chain.h"
#include "filters/registry.h"
#include "io/input_file.h"
#include "vk/pipeline_statistics.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace filterlab::report {

namespace {

using nlohmann::json;

struct Case {
  std::string source;  // device (and tool) the case comes from
  std::string filter, method, stage, precision;
  // The value of the family's size parameter (Param::is_size) where the registry knows the family
  // and the case has one.
  std::optional<int> size;
  std::map<std::string, std::string> params;  // the case's given parameters ("samples" -> "8"), but precision
  uint32_t width = 0, height = 0;
  double median_us = 0, copy_ratio = 0;
  bool exact = true;
  bool floor = false;            // the fastest copy: what copy_ratio divides by
  bool of_floor_family = false;  // one of the copies the floor was chosen from
  json error;
  std::optional<double> registers;    // per thread, the most of the case's pipelines, where the driver told
  std::string flagged;                // bench/peers.py: why a peer's error is far off the reference
  std::string timing_note;            // bench's verdicts on its time: unstable over runs, unsteady within one
  std::string capture_png, diff_png;  // the files' bytes, checked (report_capture); empty when none
};

struct Source {
  std::string label, tool, device, timings_are, date, revision;
  // The fragment copy's time over the compute floor's, where the file has a fragment copy (bench
  // times one beside the compute copies; older files have none): above kFewUnits, this device
  // shades fragments on few units.
  std::optional<double> fragment_copy_ratio;
};

// A fragment copy this many times the compute floor: fragment methods compare with each other only.
constexpr double kFewUnits = 1.5;

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string number(double v, int digits = 3) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", digits, v);
  return text;
}

std::string base64(const std::string& bytes) {
  static const char* const kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const uint32_t n = uint32_t(uint8_t(bytes[i])) << 16 |
                       (i + 1 < bytes.size() ? uint32_t(uint8_t(bytes[i + 1])) << 8 : 0) |
                       (i + 2 < bytes.size() ? uint32_t(uint8_t(bytes[i + 2])) : 0);
    out += kDigits[n >> 18 & 63];
    out += kDigits[n >> 12 & 63];
    out += i + 1 < bytes.size() ? kDigits[n >> 6 & 63] : '=';
    out += i + 2 < bytes.size() ? kDigits[n & 63] : '=';
  }
  return out;
}

// The PNG inline, so the report stays one file; nothing when the case has none.
std::string inline_png(const std::string& png, const std::string& alt) {
  if (png.empty()) return "";
  return "<img class=\"thumb\" alt=\"" + escape(alt) + "\" src=\"data:image/png;base64," + base64(png) +
         "\">";
}

// A capture a bench JSON names (`field`: "capture" or "diff"), read for inlining. A report is meant to
// be shared, and the JSON may be someone else's: only a relative path inside the JSON's own folder
// (or a folder given with --captures-from) is read, only a regular PNG file of at most
// io::kMaxCaptureFileBytes; anything else is refused (ReportInputError, exit 2). A capture that is
// not there (a JSON copied without its captures) is left out.
std::string report_capture(const std::filesystem::path& json_path, const std::string& field,
                           const json& value, const std::vector<std::filesystem::path>& roots) {
  const std::string where = json_path.string() + ": " + field;
  if (!value.is_string()) throw ReportInputError(where + " is not a file name");
  const std::filesystem::path name = value.get<std::string>();
  if (name.empty() || name.is_absolute())
    throw ReportInputError(where + " '" + name.string() +
                           "' is not a path relative to the JSON's folder: report reads no other file");
  const std::filesystem::path file = json_path.parent_path() / name;
  const std::filesystem::path folder = json_path.parent_path().empty() ? "." : json_path.parent_path();
  auto allowed = [&](const std::filesystem::path& p) {
    bool in = io::path_inside(p, folder);
    for (const std::filesystem::path& root : roots) in = in || io::path_inside(p, root);
    return in;
  };
  if (!allowed(file))
    throw ReportInputError(where + " '" + name.string() +
                           "' lies outside the JSON's folder: report reads captures only from there "
                           "(or from a folder given with --captures-from)");
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) return "";
  if (file.extension() != ".png")
    throw ReportInputError(where + " '" + name.string() + "' is not a .png file");
  io::File open = io::open_input_file(file, io::kMaxCaptureFileBytes);
  // Checked again on the file that was opened: a link swapped in since the check is caught.
  if (!allowed(io::open_file_path(open.get())))
    throw ReportInputError(where + " '" + name.string() + "' lies outside the JSON's folder once opened");
  std::string png = io::read_open_file(open.get(), file, io::kMaxCaptureFileBytes);
  if (!png.starts_with("\x89PNG\r\n\x1a\n"))
    throw ReportInputError(where + " '" + name.string() + "' is not a PNG file (no PNG signature)");
  return png;
}

const char* const kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
                                "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#393b79", "#637939"};

// A log-scale line plot of value against radius, one series per (source, method).
struct Series {
  std::string name;
  std::string
      variant;  // the parameters but x that the series fixes ("kernel=disk"): crossovers compare alike
  std::vector<std::pair<double, double>> points;  // x (a radius, a frame, a gamma), value (> 0 on a log axis)
};

// Where one series overtakes another (the crossover map: fft.vkfft against the direct methods): for
// each pair of series of one variant, the neighbouring x values of both between which the faster one
// changes. At most `most` lines, the pairs in the series' order.
std::vector<std::string> crossovers(const std::vector<Series>& series, const std::string& x_label,
                                    size_t most = 16) {
  std::vector<std::string> lines;
  for (size_t i = 0; i < series.size(); ++i)
    for (size_t j = i + 1; j < series.size(); ++j) {
      if (series[i].variant != series[j].variant) continue;
      std::map<double, std::pair<double, double>> both;  // x -> (a, b)
      for (const auto& [x, y] : series[i].points) both[x].first = y;
      for (const auto& [x, y] : series[j].points) both[x].second = y;
      std::vector<std::pair<double, double>> shared;  // x, a - b
      for (const auto& [x, ab] : both)
        if (ab.first > 0 && ab.second > 0) shared.push_back({x, ab.first - ab.second});
      for (size_t k = 1; k < shared.size(); ++k) {
        if ((shared[k - 1].second < 0) == (shared[k].second < 0)) continue;
        const bool a_wins_after = shared[k].second < 0;
        const std::string& winner = a_wins_after ? series[i].name : series[j].name;
        const std::string& loser = a_wins_after ? series[j].name : series[i].name;
        lines.push_back(winner + " overtakes " + loser + " between " + x_label + " " +
                        number(shared[k - 1].first) + " and " + number(shared[k].first));
        if (lines.size() == most) return lines;
      }
    }
  return lines;
}

// x takes its distinct values evenly spaced; y is logarithmic (decades) or linear.
std::string line_plot(const std::string& title, const std::string& x_label, const std::string& y_label,
                      const std::vector<Series>& series, bool log_y = true) {
  constexpr double W = 720, H = 380, left = 70, right = 250, top = 30, bottom = 50;
  std::set<double> radii;
  double lo = INFINITY, hi = log_y ? 0 : -INFINITY;
  for (const Series& s : series)
    for (auto [r, v] : s.points) {
      radii.insert(r);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  std::ostringstream svg;
  svg << "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H
      << "\" viewBox=\"0 0 " << W << " " << H << "\" role=\"img\" aria-label=\"" << escape(title) << "\">\n";
  svg << "<text x=\"" << left << "\" y=\"18\" class=\"title\">" << escape(title) << "</text>\n";
  if (radii.empty() || (log_y && !(hi > 0)) || !std::isfinite(lo))
    return svg.str() + "<text x=\"80\" y=\"80\">no data</text></svg>\n";
  // Log: whole decades. Linear: the range, widened to whole units and to at least 1.
  const double y0 = log_y ? std::floor(std::log10(lo)) : std::floor(lo);
  const double y1 = log_y ? std::max(y0 + 1, std::ceil(std::log10(hi))) : std::max(y0 + 1, std::ceil(hi));
  const std::vector<double> xs(radii.begin(), radii.end());
  auto x_of = [&](double r) {
    const size_t i = size_t(std::find(xs.begin(), xs.end(), r) - xs.begin());
    return left + (xs.size() == 1 ? 0.5 : double(i) / double(xs.size() - 1)) * (W - left - right);
  };
  auto y_of = [&](double v) {
    return top + (y1 - (log_y ? std::log10(v) : v)) / (y1 - y0) * (H - top - bottom);
  };
  const double step = log_y ? 1 : std::max(1.0, std::ceil((y1 - y0) / 8));
  for (double e = y0; e <= y1; e += step) {  // decades, or whole units
    const double value = log_y ? std::pow(10.0, e) : e;
    const double y = y_of(value);
    svg << "<line x1=\"" << left << "\" x2=\"" << W - right << "\" y1=\"" << y << "\" y2=\"" << y
        << "\" class=\"grid\"/><text x=\"" << left - 6 << "\" y=\"" << y + 4
        << "\" class=\"tick\" text-anchor=\"end\">" << number(value) << "</text>\n";
  }
  // At most about 16 x labels.
  const size_t every = std::max<size_t>(1, (xs.size() + 15) / 16);
  for (size_t i = 0; i < xs.size(); i += every)
    svg << "<text x=\"" << x_of(xs[i]) << "\" y=\"" << H - bottom + 18
        << "\" class=\"tick\" text-anchor=\"middle\">" << number(xs[i]) << "</text>\n";
  svg << "<text x=\"" << (left + W - right) / 2 << "\" y=\"" << H - 10
      << "\" class=\"axis\" text-anchor=\"middle\">" << escape(x_label) << "</text>\n";
  svg << "<text x=\"14\" y=\"" << (top + H - bottom) / 2
      << "\" class=\"axis\" text-anchor=\"middle\" transform=\"rotate(-90 14 " << (top + H - bottom) / 2
      << ")\">" << escape(y_label) << "</text>\n";
  for (size_t i = 0; i < series.size(); ++i) {
    const Series& s = series[i];
    const char* color = kPalette[i % std::size(kPalette)];
    std::ostringstream points;
    for (auto [r, v] : s.points) points << x_of(r) << "," << y_of(v) << " ";
    svg << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\" points=\"" << points.str()
        << "\"/>\n";
    for (auto [r, v] : s.points)
      svg << "<circle cx=\"" << x_of(r) << "\" cy=\"" << y_of(v) << "\" r=\"3\" fill=\"" << color
          << "\"><title>" << escape(s.name) << " " << escape(x_label) << " " << number(r) << ": "
          << number(v, 4) << "</title></circle>\n";
    const double ly = top + 14.0 * double(i);
    svg << "<rect x=\"" << W - right + 12 << "\" y=\"" << ly - 8 << "\" width=\"10\" height=\"10\" fill=\""
        << color << "\"/><text x=\"" << W - right + 26 << "\" y=\"" << ly + 1 << "\" class=\"legend\">"
        << escape(s.name) << "</text>\n";
  }
  return svg.str() + "</svg>\n";
}

// A log-log scatter of (x, y) points, each series joined in its order: the error-time frontier.
std::string xy_plot(const std::string& title, const std::string& x_label, const std::string& y_label,
                    const std::vector<Series>& series) {
  constexpr double W = 520, H = 340, left = 70, right = 230, top = 30, bottom = 50;
  double x_lo = INFINITY, x_hi = 0, y_lo = INFINITY, y_hi = 0;
  for (const Series& s : series)
    for (auto [x, y] : s.points) {
      x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x), y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
    }
  std::ostringstream svg;
  svg << "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H
      << "\" viewBox=\"0 0 " << W << " " << H << "\" role=\"img\" aria-label=\"" << escape(title) << "\">\n"
      << "<text x=\"" << left << "\" y=\"18\" class=\"title\">" << escape(title) << "</text>\n";
  if (!(x_hi > 0) || !(y_hi > 0)) return svg.str() + "<text x=\"80\" y=\"80\">no data</text></svg>\n";
  const double x0 = std::floor(std::log10(x_lo)), x1 = std::max(x0 + 1, std::ceil(std::log10(x_hi)));
  const double y0 = std::floor(std::log10(y_lo)), y1 = std::max(y0 + 1, std::ceil(std::log10(y_hi)));
  auto px = [&](double x) { return left + (std::log10(x) - x0) / (x1 - x0) * (W - left - right); };
  auto py = [&](double y) { return top + (y1 - std::log10(y)) / (y1 - y0) * (H - top - bottom); };
  for (double e = x0; e <= x1; ++e)
    svg << "<line y1=\"" << top << "\" y2=\"" << H - bottom << "\" x1=\"" << px(std::pow(10, e)) << "\" x2=\""
        << px(std::pow(10, e)) << "\" class=\"grid\"/><text x=\"" << px(std::pow(10, e)) << "\" y=\""
        << H - bottom + 16 << "\" class=\"tick\" text-anchor=\"middle\">" << number(std::pow(10, e))
        << "</text>\n";
  for (double e = y0; e <= y1; ++e)
    svg << "<line x1=\"" << left << "\" x2=\"" << W - right << "\" y1=\"" << py(std::pow(10, e)) << "\" y2=\""
        << py(std::pow(10, e)) << "\" class=\"grid\"/><text x=\"" << left - 6 << "\" y=\""
        << py(std::pow(10, e)) + 4 << "\" class=\"tick\" text-anchor=\"end\">" << number(std::pow(10, e))
        << "</text>\n";
  svg << "<text x=\"" << (left + W - right) / 2 << "\" y=\"" << H - 10
      << "\" class=\"axis\" text-anchor=\"middle\">" << escape(x_label) << "</text><text x=\"14\" y=\""
      << (top + H - bottom) / 2 << "\" class=\"axis\" text-anchor=\"middle\" transform=\"rotate(-90 14 "
      << (top + H - bottom) / 2 << ")\">" << escape(y_label) << "</text>\n";
  for (size_t i = 0; i < series.size(); ++i) {
    const char* color = kPalette[i % std::size(kPalette)];
    std::ostringstream points;
    for (auto [x, y] : series[i].points) points << px(x) << "," << py(y) << " ";
    svg << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"1.5\" points=\"" << points.str()
        << "\"/>\n";
    for (auto [x, y] : series[i].points)
      svg << "<circle cx=\"" << px(x) << "\" cy=\"" << py(y) << "\" r=\"3\" fill=\"" << color << "\"><title>"
          << escape(series[i].name) << ": " << number(x, 4) << " " << escape(x_label) << ", " << number(y, 3)
          << "</title></circle>\n";
    svg << "<rect x=\"" << W - right + 12 << "\" y=\"" << top + 14.0 * double(i) - 8
        << "\" width=\"10\" height=\"10\" fill=\"" << color << "\"/><text x=\"" << W - right + 26 << "\" y=\""
        << top + 14.0 * double(i) + 1 << "\" class=\"legend\">" << escape(series[i].name) << "</text>\n";
  }
  return svg.str() + "</svg>\n";
}

std::string params_text(const Case& c) {
  std::string out;
  for (const auto& [key, value] : c.params) out += (out.empty() ? "" : " ") + key + "=" + value;
  return out;
}

// Which stages share a plot. Fragment methods stay apart (some GPUs run fragment shaders on few
// units); CUDA peers (stage "cuda", from bench/peers.py) join the compute methods, since both run on
// the SMs and that is the comparison a reader wants at a glance.
struct PlotGroup {
  std::string title;
  std::set<std::string> stages;
};

std::vector<PlotGroup> plot_groups(const std::set<std::string>& stages) {
  std::vector<PlotGroup> groups;
  const bool peers = stages.count("cuda") > 0, compute = stages.count("compute") > 0;
  for (const std::string& stage : stages) {
    if (stage == "cuda") continue;
    if (stage == "compute" && peers) {
      groups.push_back({"compute methods and CUDA peers", {"compute", "cuda"}});
    } else {
      groups.push_back({stage + " methods", {stage}});
    }
  }
  if (peers && !compute) groups.push_back({"CUDA peers", {"cuda"}});
  return groups;
}

json read_input(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ReportInputError(path.string() + " is not a file (a folder)");
  if (!std::filesystem::exists(path, ec)) throw ReportInputError(path.string() + " does not exist");
  const std::string text = io::read_input_file(path, io::kMaxJsonFileBytes);  // io::InputError: exit 2
  if (const std::string deep = io::json_too_deep(text); !deep.empty())
    throw ReportInputError(path.string() + " is not a bench JSON file (" + deep + ")");
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    // Not e.what(): it quotes the bytes it read, which for an image file are binary noise.
    throw ReportInputError(path.string() + " is not a bench JSON file (not JSON: syntax error at byte " +
                           std::to_string(e.byte) + ")");
  } catch (const json::exception&) {  // a number beyond double's range (1e999)
    throw ReportInputError(path.string() + " is not a bench JSON file (a number out of range)");
  }
}

bool is_evaluation(const json& j) {
  return j.is_object() && j.contains("schema") && j["schema"].is_string() &&
         j["schema"].get<std::string>().rfind("filterlab.evaluation/", 0) == 0;
}

std::vector<Case> load(const std::filesystem::path& path, const json& j, std::vector<Source>& sources,
                       const std::vector<std::filesystem::path>& capture_roots) {
  // The field being read, so that an error names it ("cases[3].median_us").
  std::string field;
  auto at = [&](const json& object, const char* key, const std::string& where = "") -> const json& {
    field = where + key;
    return object.at(key);
  };
  auto value = [&](const json& object, const char* key, auto fallback, const std::string& where = "") {
    field = where + key;
    return object.value(key, fallback);
  };
  try {
    if (at(j, "schema").get<std::string>().rfind("filterlab.bench/", 0) != 0)
      throw ReportInputError(path.string() + ": not a filterlab bench file (schema " + j["schema"].dump() +
                             ")");
    Source source;
    source.device = at(at(j, "device"), "name", "device.").get<std::string>();
    source.tool = value(j, "tool", std::string("filterlab"));
    source.label = source.tool == "filterlab" ? source.device : source.tool + " on " + source.device;
    source.timings_are = at(j, "timings_are").get<std::string>();
    source.date = value(j, "date", std::string());
    source.revision = value(j, "git_revision", std::string());
    sources.push_back(source);
    // Files written before the key existed had this registry's floor family as their floor.
    const std::string floor_filter = value(j, "floor_filter", filters::registry().memory_floor().name);
    std::vector<Case> cases;
    const json& all = at(j, "cases");
    if (!all.is_array())
      throw ReportInputError(path.string() + ": not a filterlab bench file: cases: not a list");
    for (size_t i = 0; i < all.size(); ++i) {
      const json& c = all[i];
      const std::string w = "cases[" + std::to_string(i) + "].";
      Case k;
      k.source = source.label;
      k.filter = at(c, "filter", w).get<std::string>();
      k.method = at(c, "method", w).get<std::string>();
      k.stage = at(c, "stage", w).get<std::string>();
      k.precision = at(c, "precision", w).get<std::string>();
      const filters::Family* family = filters::registry().find(k.filter);
      if (const filters::Param* size = family ? family->size_param() : nullptr;
          size && c.contains(size->name) && !c[size->name].is_null()) {
        const int value = at(c, size->name.c_str(), w).get<int>();
        if (value > 0) k.size = value;  // schema 1 wrote 0 where the family had none
      }
      // The case's parameters, as a chain step spells them ("radius=2:precision=fp16").
      if (const std::string params = value(c, "params", std::string(), w); !params.empty()) {
        const std::vector<filters::FilterStep> step = filters::parse_chain("f.m:" + params);
        for (const filters::RawParam& p : step.at(0).params)
          if (p.first != "precision") k.params[p.first] = p.second;
      }
      k.width = at(c, "width", w).get<uint32_t>();
      k.height = at(c, "height", w).get<uint32_t>();
      k.median_us = at(c, "median_us", w).get<double>();
      k.copy_ratio = value(c, "copy_ratio", 0.0, w);
      k.exact = value(c, "exact", true, w);
      k.floor = value(c, "floor", false, w);
      k.of_floor_family = k.filter == floor_filter;
      k.error = value(c, "error", json(), w);
      for (const json& p : value(c, "pipelines", json::array(), w)) {
        const json statistics =
            value(p, "statistics", json::object(), w + "pipelines[].");  // kept alive for items()
        for (const auto& [key, value] : statistics.items()) {
          // Graphics pipelines key their stages' statistics "executable: statistic".
          const size_t colon = key.rfind(": ");
          const std::string name = colon == std::string::npos ? key : key.substr(colon + 2);
          if (vk::counts_registers(name) && value.is_number())
            k.registers = std::max(k.registers.value_or(0.0), value.get<double>());
        }
      }
      if (c.contains("flagged") && c["flagged"].is_string()) k.flagged = c["flagged"].get<std::string>();
      // A time that is not one number says so beside it (older files have neither verdict).
      if (value(c, "unstable", false, w))
        k.timing_note = "unstable: runs spread " + number(100 * value(c, "spread", 0.0, w)) + "%";
      if (value(c, "unsteady", false, w))
        k.timing_note += std::string(k.timing_note.empty() ? "" : "; ") +
                         "unsteady: " + number(100 * value(c, "off_level_share", 0.0, w)) +
                         "% of a run's frames off its level";
      if (c.contains("capture")) k.capture_png = report_capture(path, "capture", c["capture"], capture_roots);
      if (c.contains("diff")) k.diff_png = report_capture(path, "diff", c["diff"], capture_roots);
      // The fragment copy at its largest ratio: a fact of the device the cases ran on.
      if (k.of_floor_family && k.stage == "fragment" && k.copy_ratio > 0)
        sources.back().fragment_copy_ratio =
            std::max(sources.back().fragment_copy_ratio.value_or(0.0), k.copy_ratio);
      cases.push_back(k);
    }
    return cases;
  } catch (const json::exception& e) {
    std::string why = e.what();  // "[json.exception.type_error.302] type must be number, but is string"
    if (const size_t bracket = why.find("] ");
        why.starts_with("[json.exception") && bracket != std::string::npos)
      why = why.substr(bracket + 2);
    throw ReportInputError(path.string() + ": not a filterlab bench file: " + field + ": " + why);
  }
}

}  // namespace

// An evaluation file (filterlab evaluate --json): per sequence, PSNR against the frame for every
// configuration; then, for the configurations that carry a value of the plotted parameter, PSNR and
// mean FLIP of the last frame, and flicker on the still sequence, against it.
std::string evaluation_section(const std::filesystem::path& path, const json& t, ReportSummary& report) {
  std::ostringstream body;
  try {
    const std::string title = t.at("title").get<std::string>(),
                      plotted = t.at("plotted_param").get<std::string>();
    body << "<h2>" << escape(title) << " on " << escape(t.at("device").get<std::string>()) << ", "
         << t.at("size")[0].get<int>() << "x" << t.at("size")[1].get<int>() << ", references of "
         << t.at("reference_offsets").get<int>() << " offsets</h2>\n<div class=\"row\">";
    std::map<std::string, Series> psnr_by_value, flicker_by_value, flip_by_value;
    for (const json& seq : t.at("sequences")) {
      const std::string name = seq.at("sequence").get<std::string>();
      std::vector<Series> curves;
      for (const json& c : seq.at("configs")) {
        Series s{c.at("config").get<std::string>(), {}};
        const json& psnr = c.at("psnr");
        for (size_t f = 0; f < psnr.size(); ++f)
          if (psnr[f].is_number()) s.points.push_back({double(f + 1), psnr[f].get<double>()});
        curves.push_back(s);
        const json& value = c.at("plotted");
        if (value.is_null() || plotted.empty() || !c.at("psnr_last").is_number()) continue;
        const double x = value.get<double>();
        if (!std::isfinite(x))
          throw ReportInputError(path.string() + ": sequence " + name + ", config " + s.name + ": " +
                                 plotted + " is not a finite number");
        psnr_by_value[name].name = name;
        psnr_by_value[name].points.push_back({x, c["psnr_last"].get<double>()});
        if (c.contains("flip_last")) {  // files from before FLIP have none
          flip_by_value[name].name = name;
          flip_by_value[name].points.push_back({x, c.at("flip_last").get<double>()});
        }
        if (name == "still") {
          flicker_by_value[name].name = name;
          if (c.at("flicker").is_number())  // null: a run of one frame has none
            flicker_by_value[name].points.push_back({x, c.at("flicker").get<double>()});
        }
      }
      body << line_plot("PSNR against the reference, " + name, "frame", "PSNR dB", curves, false);
      ++report.plots;
    }
    if (!psnr_by_value.empty()) {
      std::vector<Series> psnr, flicker;
      for (auto& [n, s] : psnr_by_value) psnr.push_back(s);
      for (auto& [n, s] : flicker_by_value) flicker.push_back(s);
      body << line_plot(title + ": PSNR of the last frame against " + plotted, plotted, "PSNR dB", psnr,
                        false)
           << line_plot(title + ": flicker (still) against " + plotted, plotted, "mean |change| (log)",
                        flicker);
      report.plots += 2;
      if (!flip_by_value.empty()) {
        std::vector<Series> flip;
        for (auto& [n, s] : flip_by_value) flip.push_back(s);
        body << line_plot(title + ": mean FLIP of the last frame against " + plotted, plotted,
                          "mean LDR-FLIP", flip, false);
        ++report.plots;
      }
    }
    body << "</div>\n";
  } catch (const json::exception& e) {
    throw ReportInputError(path.string() + ": not an evaluation file: missing or malformed field (" +
                           e.what() + ")");
  }
  return body.str();
}

ReportSummary make_report(const std::vector<std::filesystem::path>& inputs,
                          const std::vector<std::filesystem::path>& capture_roots) {
  std::vector<Source> sources;
  std::vector<Case> cases;
  std::vector<std::pair<std::filesystem::path, json>> evaluations;
  for (const auto& path : inputs) {
    json j = read_input(path);
    if (is_evaluation(j)) {
      evaluations.emplace_back(path, std::move(j));
      continue;
    }
    for (Case& c : load(path, j, sources, capture_roots)) cases.push_back(std::move(c));
  }

  // A series is one method from one source. Its legend names the method alone unless another source
  // has the same method at the same size and precision (plots are per size): then the device
  // (several devices), or the whole source label (two runs on one device) tells them apart. Peers'
  // method names already say which library they are.
  std::map<std::string, std::string> device_of;
  for (const Source& s : sources) device_of[s.label] = s.device;
  std::map<std::string, std::set<std::string>> sources_of;  // per method, size, precision
  const auto key_of = [](const Case& c) {
    return c.method + "@" + std::to_string(c.width) + "x" + std::to_string(c.height) + "/" + c.precision;
  };
  for (const Case& c : cases) sources_of[key_of(c)].insert(c.source);
  const auto series_name = [&](const Case& c) {
    const std::set<std::string>& same = sources_of[key_of(c)];
    if (same.size() < 2) return c.method;
    std::set<std::string> devices;
    for (const std::string& src : same) devices.insert(device_of[src]);
    return (devices.size() == same.size() ? device_of[c.source] : c.source) + ": " + c.method;
  };

  ReportSummary report;
  std::ostringstream body;
  body << "<h1>filterlab benchmark report</h1>\n<ul>\n";
  for (const Source& s : sources)
    body << "<li><b>" << escape(s.label) << "</b>: timings are " << escape(s.timings_are) << "; "
         << escape(s.date) << (s.revision.empty() ? "" : ", git " + escape(s.revision)) << "</li>\n";
  body << "</ul>\n";

  // One section per family, size and precision; the floor family's cases give the floor line.
  std::set<std::tuple<std::string, uint32_t, uint32_t, std::string>> groups;
  for (const Case& c : cases)
    if (!c.of_floor_family) groups.insert({c.filter, c.width, c.height, c.precision});
  for (const auto& group : groups) {
    // Named copies, not structured bindings: C++20 lets lambdas capture those, clang 14 (the fuzzing
    // build's compiler) does not.
    const std::string& filter = std::get<0>(group);
    const uint32_t width = std::get<1>(group), height = std::get<2>(group);
    const std::string& precision = std::get<3>(group);
    const std::string size_text = std::to_string(width) + "x" + std::to_string(height);
    body << "<h2>" << escape(filter) << ", " << size_text << " " << escape(precision) << "</h2>\n<p>";
    for (const Case& c : cases)
      if (c.of_floor_family && c.width == width && c.height == height && c.precision == precision)
        body << escape(c.filter) << " " << escape(c.method) << (c.floor ? " (the memory floor)" : "")
             << " on " << escape(c.source) << ": " << number(c.median_us, 4) << " µs. ";
    body << "</p>\n";
    std::set<std::string> stages;
    for (const Case& c : cases)
      if (!c.of_floor_family) stages.insert(c.stage);
    // Which devices shade fragments on few units, from what their files measured: the fragment copy
    // against the compute floor.
    std::set<std::string> noted;
    for (const Source& s : sources)
      if (s.fragment_copy_ratio && *s.fragment_copy_ratio > kFewUnits && stages.count("fragment") &&
          noted.insert(s.device).second)
        body << "<p class=\"note\">" << escape(s.device) << " copies " << number(*s.fragment_copy_ratio)
             << "x slower in a fragment shader than in compute: it runs fragment shaders on few units; "
                "compare fragment methods with fragment methods only.</p>\n";
    // The x axis: the family's size parameter where its cases have one, else the numeric parameter
    // that every case of the section has with the most values (a sigma). The other parameters that
    // vary name the series.
    const filters::Family* family = filters::registry().find(filter);
    const filters::Param* size = family ? family->size_param() : nullptr;
    bool x_is_size = false;
    for (const Case& c : cases)
      if (c.filter == filter && c.size) x_is_size = true;
    std::string x_param = x_is_size ? size->name : "";
    std::map<std::string, std::set<std::string>> values;
    for (const Case& c : cases)
      if (c.filter == filter && c.width == width && c.height == height && c.precision == precision)
        for (const auto& [key, value] : c.params) values[key].insert(value);
    if (!x_is_size) {
      size_t most = 1;
      for (const auto& [key, seen] : values) {
        char* end = nullptr;
        std::strtod(seen.begin()->c_str(), &end);
        bool everywhere = true;
        for (const Case& c : cases)
          if (c.filter == filter && c.width == width && c.height == height && c.precision == precision &&
              !c.of_floor_family && !c.params.count(key))
            everywhere = false;
        if (*end == 0 && everywhere && seen.size() > most) {
          most = seen.size();
          x_param = key;
        }
      }
    }
    const auto x_of = [&](const Case& c) {
      if (x_is_size) return double(c.size.value_or(0));
      const auto it = c.params.find(x_param);
      return it == c.params.end() ? 0.0 : std::strtod(it->second.c_str(), nullptr);
    };
    const auto variant_of = [&](const Case& c) {  // the varying parameters but x, "samples=8 ..."
      std::string out;
      for (const auto& [key, value] : c.params)
        if (key != x_param && values[key].size() > 1) out += " " + key + "=" + value;
      return out;
    };
    auto series_for = [&](auto keep, auto value) {
      std::map<std::string, Series> by_name;
      std::vector<std::string> order;
      for (const Case& c : cases) {
        if (c.filter != filter || c.width != width || c.height != height || c.precision != precision ||
            !keep(c))
          continue;
        const std::string key = c.source + "\n" + c.method + variant_of(c);
        if (!by_name.count(key)) order.push_back(key);
        by_name[key].name = series_name(c) + variant_of(c);
        by_name[key].variant = variant_of(c);
        const double v = value(c);
        if (v > 0) by_name[key].points.push_back({x_of(c), v});
      }
      // Runs of one tool on one device (several JSON files, e.g. radii split over runs) share a
      // series: sort its points by x.
      std::vector<Series> out;
      for (const std::string& n : order) {
        out.push_back(by_name[n]);
        std::sort(out.back().points.begin(), out.back().points.end());
      }
      return out;
    };
    const auto median = [](const Case& c) { return c.median_us; };
    const auto ratio = [](const Case& c) { return c.copy_ratio; };
    const std::string x_label = x_param.empty()                    ? "case"
                                : x_is_size && !size->unit.empty() ? x_param + " (" + size->unit + ")"
                                                                   : x_param;
    for (const PlotGroup& group : plot_groups(stages)) {
      const auto in_group = [&](const Case& c) { return group.stages.count(c.stage) > 0; };
      body << "<div class=\"row\">"
           << line_plot(group.title + ": GPU time, " + size_text, x_label, "median µs (log)",
                        series_for(in_group, median))
           << line_plot(group.title + ": time / copy pass, " + size_text, x_label, "× copy (log)",
                        series_for(in_group, ratio))
           << "</div>\n";
      report.plots += 2;
      const std::vector<std::string> crossed = crossovers(series_for(in_group, median), x_param);
      if (!crossed.empty()) {
        body << "<p class=\"note\">Crossovers (median time): ";
        for (size_t k = 0; k < crossed.size(); ++k) body << (k ? "; " : "") << escape(crossed[k]);
        body << ".</p>\n";
      }
    }
    // The error-time frontier, per value of x where the cases measured an error: MSE against time,
    // each method a curve over its other parameters (samples, footprint), fastest first.
    if (!x_is_size) {
      std::map<double, std::map<std::string, Series>> frontier;
      for (const Case& c : cases) {
        if (c.filter != filter || c.width != width || c.height != height || c.precision != precision)
          continue;
        if (!c.error.is_object() || !c.error.value("mse", json()).is_number()) continue;
        const double mse = c.error["mse"].get<double>();
        if (!(mse > 0)) continue;  // the reference method itself
        Series& s = frontier[x_of(c)][c.source + "\n" + c.method];
        s.name = series_name(c);
        s.points.push_back({c.median_us, mse});
      }
      if (!frontier.empty()) body << "<div class=\"row\">";
      for (auto& [x, by_method] : frontier) {
        std::vector<Series> series;
        for (auto& [key, s] : by_method) {
          std::sort(s.points.begin(), s.points.end());
          series.push_back(s);
        }
        body << xy_plot("MSE against time, " + x_param + " " + number(x) + ", " + size_text,
                        "median µs (log)", "MSE (log)", series);
        ++report.plots;
      }
      if (!frontier.empty()) body << "</div>\n";
    }
    // Error table.
    body << "<table><tr><th>source</th><th>method</th><th>stage</th><th>exact</th><th>"
         << escape(x_is_size ? x_param : std::string("parameters"))
         << "</th><th>median µs</th>"
            "<th>× copy</th><th>registers</th><th>max abs</th><th>MSE</th><th>SSIM</th><th>output "
            "(top-left)</th><th>|error| × 256</th></tr>\n";
    for (const Case& c : cases) {
      if (c.filter != filter || c.width != width || c.height != height || c.precision != precision) continue;
      auto field = [&](const char* key) {
        return c.error.is_object() && c.error.contains(key) && c.error[key].is_number()
                   ? number(c.error[key].get<double>())
                   : std::string("—");
      };
      body << "<tr><td>" << escape(c.source) << "</td><td>" << escape(c.method)
           << (c.flagged.empty() ? "" : " <span class=\"note\">(flagged: " + escape(c.flagged) + ")</span>")
           << "</td><td>" << escape(c.stage) << "</td><td>" << (c.exact ? "yes" : "no") << "</td><td>"
           << (x_is_size ? std::to_string(c.size.value_or(0)) : escape(params_text(c))) << "</td><td>"
           << number(c.median_us, 4)
           << (c.timing_note.empty() ? "" : " <span class=\"note\">(" + escape(c.timing_note) + ")</span>")
           << "</td><td>" << number(c.copy_ratio) << "</td><td>" << (c.registers ? number(*c.registers) : "—")
           << "</td><td>" << field("max_abs") << "</td><td>" << field("mse") << "</td><td>" << field("ssim")
           << "</td><td>" << inline_png(c.capture_png, c.method + " output") << "</td><td>"
           << inline_png(c.diff_png, c.method + " error") << "</td></tr>\n";
    }
    body << "</table>\n";
  }

  for (const auto& [path, t] : evaluations) body << evaluation_section(path, t, report);

  report.html = std::string(
                    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<title>filterlab benchmark report</title><style>\n") +
                "body{font-family:sans-serif;margin:2em;color:#222} .row{display:flex;flex-wrap:wrap;gap:1em}"
                " svg.plot{background:#fff;border:1px solid #ddd} .title{font-size:14px;font-weight:bold}"
                " .tick,.legend{font-size:11px} .axis{font-size:12px} .grid{stroke:#eee}"
                " table{border-collapse:collapse;font-size:12px;margin:1em 0} td,th{border:1px solid "
                "#ccc;padding:2px 6px}"
                " .note{color:#a33} "
                "img.thumb{width:64px;height:64px;image-rendering:pixelated}\n</style></head><body>\n" +
                body.str() + "</body></html>\n";
  return report;
}

}  // namespace filterlab::report
