// Writes the HTML report of a JSON report file, for the browser test (the nvbandwidth binary has
// no HTML option yet): render_html_report <report.json> <page.html>.
#include <exception>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "nvbandwidth/html_report.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: render_html_report <report.json> <page.html>\n";
    return 2;
  }
  try {
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) throw std::runtime_error(std::string("cannot open ") + argv[1]);
    const nlohmann::json document = nlohmann::json::parse(in);
    std::ofstream out(argv[2], std::ios::binary);
    out << nvbw::renderHtmlReport(document);
    out.close();
    if (!out) throw std::runtime_error(std::string("cannot write ") + argv[2]);
  } catch (const std::exception& e) {
    std::cerr << "render_html_report: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
