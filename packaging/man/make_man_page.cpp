// Writes the man page at build time (cmake/Install.cmake runs it):
//   make_man_page TEMPLATE OUTPUT PROGRAM single|multinode DATE DATADIR DOCDIR
// `multinode` lists the testcases of the MPI program (nvbandwidth-mpi) too.
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "core/version.h"
#include "man_page.h"

int main(int argc, char** argv) {
  if (argc != 8) {
    std::cerr << "usage: make_man_page TEMPLATE OUTPUT PROGRAM single|multinode DATE DATADIR "
                 "DOCDIR\n";
    return 2;
  }
  const std::string scope = argv[4];
  if (scope != "single" && scope != "multinode") {
    std::cerr << "make_man_page: the scope is single or multinode, not '" << scope << "'\n";
    return 2;
  }
  try {
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) throw std::runtime_error(std::string("cannot read ") + argv[1]);
    std::ostringstream pageTemplate;
    pageTemplate << in.rdbuf();
    const nvbw::man::PageFacts facts{argv[3], nvbw::kRelease, argv[5], argv[6], argv[7]};
    const auto registry =
        nvbw::makeRegistry(scope == "multinode" ? nvbw::RegistryScope::WithMultinode
                                                : nvbw::RegistryScope::SingleNode);
    const std::string page =
        nvbw::man::renderManPage(pageTemplate.str(), facts, nvbw::helpEntries(), registry);
    std::ofstream out(argv[2], std::ios::binary);
    out << page;
    out.close();
    if (!out) throw std::runtime_error(std::string("cannot write ") + argv[2]);
  } catch (const std::exception& e) {
    std::cerr << "make_man_page: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
