// `filterlab report`: one self-contained HTML file (inline SVG) from bench JSON files. No device.
#include "command.h"

#include "bench_report.h"

#include <cstdio>

namespace filterlab::app {
namespace {

constexpr std::string_view kSynopsis =
    R"(  report B.json ...   one self-contained HTML file (inline SVG) from bench JSON files: --out FILE.html;
                      captures are inlined from each JSON's folder only (--captures-from DIR adds one)
)";

struct ReportRequest {
  std::vector<std::filesystem::path> inputs;         // bench JSON files
  std::filesystem::path out;                         // --out F.html
  std::vector<std::filesystem::path> capture_roots;  // --captures-from DIR (repeatable)
};

ReportRequest parse_report(Args& args) {
  ReportRequest out;
  bool have_out = false;
  while (args.next()) {
    const std::string& flag = args.flag();
    if (flag == "--out") {
      out.out = args.value();
      have_out = true;
      if (out.out.extension() != ".html")
        throw UsageError("--out wants a .html file, got '" + out.out.string() + "'");
      check_writable(flag, out.out);
    } else if (flag == "--captures-from") {
      const std::filesystem::path dir = args.value();
      std::error_code ec;
      if (!std::filesystem::is_directory(dir, ec))
        throw UsageError("--captures-from " + dir.string() + ": not a folder");
      out.capture_roots.push_back(dir);
    } else if (flag.starts_with("--")) {
      args.unknown();
    } else {
      out.inputs.push_back(flag);
    }
  }
  if (out.inputs.empty()) throw UsageError("report wants at least one bench JSON file");
  if (!have_out) throw UsageError("report needs --out FILE.html");
  return out;
}

int write_report(const ReportRequest& options) {
  report::ReportSummary report;
  try {
    report = report::make_report(options.inputs, options.capture_roots);
  } catch (const report::ReportInputError& e) {
    throw UsageError(e.what());
  }
  write_text(options.out, report.html);
  std::printf("%s: %d plots from %zu file(s)\n", options.out.string().c_str(), report.plots,
              options.inputs.size());
  return 0;
}

Work prepare(Args& args) {
  const ReportRequest request = parse_report(args);
  return [request] { return write_report(request); };
}

}  // namespace

const Command& report_command() {
  static const Command command{"report", kSynopsis, "", 0, prepare};
  return command;
}

}  // namespace filterlab::app
