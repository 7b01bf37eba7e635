#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <re2/re2.h>
#include <set>
#include <sstream>
#include <string>

#include "runtime/runtime_symbols.h"

namespace floe {
namespace {

// Every function declared in runtime_abi.h, read from the header itself.
std::set<std::string> declared_abi_functions() {
  std::filesystem::path header = std::filesystem::path(FLOE_SOURCE_DIR) / "runtime/runtime_abi.h";
  std::ifstream in(header);
  EXPECT_TRUE(in) << "cannot read " << header;
  std::stringstream text;
  text << in.rdbuf();
  std::string source = text.str();
  std::set<std::string> names;
  // RE2 rather than std::regex: GCC 12 warns falsely inside <regex> under the sanitizers.
  RE2 declaration(R"(\b(floe_rt_\w+)\s*\()");
  re2::StringPiece rest(source);
  std::string name;
  while (RE2::FindAndConsume(&rest, declaration, &name)) names.insert(name);
  return names;
}

TEST(RuntimeSymbolsTest, OneEntryPerAbiFunction) {
  std::set<std::string> declared = declared_abi_functions();
  ASSERT_FALSE(declared.empty());
  std::set<std::string> listed;
  for (const auto& [name, address] : runtime_symbols()) {
    EXPECT_NE(address, nullptr) << name;
    EXPECT_TRUE(listed.insert(name).second) << "listed twice: " << name;
  }
  EXPECT_EQ(listed, declared);
}

}  // namespace
}  // namespace floe
