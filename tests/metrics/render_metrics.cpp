// Test-only: the metrics file of each report, as `--metrics` will write it from `--from`:
//   render_metrics OUT_DIR REPORT...
// reads each report into a Report as the tool reads saved reports (report_files.h: regular file,
// bounded, by the model's reader) and writes OUT_DIR/<the report's path with every character but
// [A-Za-z0-9.-] as _>.prom. Exits 1 naming the first report that cannot be read or written.
#include <fstream>
#include <iostream>
#include <string>

#include "fleet/metrics/metrics.h"
#include "model/report_files.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: render_metrics OUT_DIR REPORT...\n";
    return 2;
  }
  const std::string outDir = argv[1];
  for (int i = 2; i < argc; ++i) {
    const std::string path = argv[i];
    std::string name = path;
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '_';
    try {
      const nvbw::Report report =
          nvbw::readReport(nvbw::NamedFile{"--from", path},
                           nvbw::ReadOptions{nvbw::ReportKind::RunOrComparison}, {});
      std::ofstream out(outDir + "/" + name + ".prom", std::ios::binary);
      for (const std::string& piece : nvbw::metricsPieces(report, {})) out << piece;
      if (!out.flush()) throw std::runtime_error("cannot write " + outDir + "/" + name + ".prom");
    } catch (const std::exception& e) {
      std::cerr << "render_metrics: " << path << ": " << e.what() << "\n";
      return 1;
    }
  }
  return 0;
}
