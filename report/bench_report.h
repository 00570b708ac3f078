#pragma once
// `filterlab report BENCH.json [MORE.json ...] --out report.html`: one self-contained HTML file
// (inline SVG and CSS, no script, no network) from one or more bench JSON files (several devices,
// or filterlab beside peers written in the same schema), and from `filterlab evaluate` JSON files
// (PSNR against the frame; PSNR and flicker against the evaluation's plotted parameter).
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace filterlab::report {

// A file that is missing, is not JSON or lacks the bench schema's fields: a usage error.
class ReportInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ReportSummary {
  std::string html;
  int plots = 0;  // <svg class="plot"> elements
};

// Captures (the PNGs bench --captures wrote) are inlined from each JSON's own folder, or from one of
// `capture_roots` (report --captures-from DIR); a capture named anywhere else is refused.
ReportSummary make_report(const std::vector<std::filesystem::path>& inputs,
                          const std::vector<std::filesystem::path>& capture_roots = {});

}  // namespace filterlab::report
