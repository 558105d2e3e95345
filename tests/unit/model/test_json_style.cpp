#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "golden.h"
#include "model/json_style.h"

namespace nvbw {
namespace test_json_style {

using test::readFile;

using nlohmann::json;

const std::string kUpstreamJson = std::string(NVBW_GOLDEN_DIR) + "/upstream/default.json";

TEST(JsonStyle, ReproducesUpstreamDocumentByteForByte) {
  const std::string reference = readFile(kUpstreamJson);
  ASSERT_FALSE(reference.empty());
  // Upstream ends with toStyledString()'s "\n" and then std::endl.
  EXPECT_EQ(styledJson(json::parse(reference)) + "\n", reference);
}

TEST(JsonStyle, HandBuiltDocumentMatchesUpstreamHead) {
  const json doc = {
      {"nvbandwidth",
       {{"version", "v0.8"},
        {"git_version", ""},
        {"CUDA Runtime Version", 13000},
        {"Driver Version", "580.159.04"},
        {"GPU Device list", {"0: NVIDIA H200 (00000000:00:06): (vm)"}},
        {"testcases",
         {{{"name", "host_to_device_memcpy_ce"},
           {"status", "Passed"},
           {"bandwidth_description", "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)"},
           {"bandwidth_matrix", json::array({json::array({"55.4859"})})},
           {"sum", 55.485873873000003}}}}}}};
  const std::string expected = "{\n"
                               "\t\"nvbandwidth\" : \n"
                               "\t{\n"
                               "\t\t\"CUDA Runtime Version\" : 13000,\n"
                               "\t\t\"Driver Version\" : \"580.159.04\",\n"
                               "\t\t\"GPU Device list\" : \n"
                               "\t\t[\n"
                               "\t\t\t\"0: NVIDIA H200 (00000000:00:06): (vm)\"\n"
                               "\t\t],\n"
                               "\t\t\"git_version\" : \"\",\n"
                               "\t\t\"testcases\" : \n"
                               "\t\t[\n"
                               "\t\t\t{\n"
                               "\t\t\t\t\"bandwidth_description\" : \"memcpy CE CPU(row) -> "
                               "GPU(column) bandwidth (GB/s)\",\n"
                               "\t\t\t\t\"bandwidth_matrix\" : \n"
                               "\t\t\t\t[\n"
                               "\t\t\t\t\t[\n"
                               "\t\t\t\t\t\t\"55.4859\"\n"
                               "\t\t\t\t\t]\n"
                               "\t\t\t\t],\n"
                               "\t\t\t\t\"name\" : \"host_to_device_memcpy_ce\",\n"
                               "\t\t\t\t\"status\" : \"Passed\",\n"
                               "\t\t\t\t\"sum\" : 55.485873873000003\n"
                               "\t\t\t}\n"
                               "\t\t],\n"
                               "\t\t\"version\" : \"v0.8\"\n"
                               "\t}\n"
                               "}\n";
  EXPECT_EQ(styledJson(doc), expected);
}

TEST(JsonStyle, KeysSortByteWiseUppercaseFirst) {
  const json doc = {{"b", 1}, {"a", 2}, {"Z", 3}, {"CUDA Driver Version", 4}};
  EXPECT_EQ(styledJson(doc),
            "{\n\t\"CUDA Driver Version\" : 4,\n\t\"Z\" : 3,\n\t\"a\" : 2,\n\t\"b\" : 1\n}\n");
}

TEST(JsonStyle, Doubles) {
  EXPECT_EQ(core::jsonDouble(55.485873873000003), "55.485873873000003");
  EXPECT_EQ(core::jsonDouble(1197.2177624702454), "1197.2177624702454");
  EXPECT_EQ(core::jsonDouble(3.0), "3.0");
  EXPECT_EQ(core::jsonDouble(0.0), "0.0");
  EXPECT_EQ(core::jsonDouble(-2.0), "-2.0");
  EXPECT_EQ(core::jsonDouble(0.1), "0.10000000000000001");
  EXPECT_EQ(core::jsonDouble(1e300), "1.0000000000000001e+300");
  EXPECT_EQ(core::jsonDouble(1e22), "1e+22");
  EXPECT_EQ(core::jsonDouble(std::numeric_limits<double>::min()), "2.2250738585072014e-308");
}

TEST(JsonStyle, NonFiniteDoubles) {
  EXPECT_EQ(core::jsonDouble(std::nan("")), "null");
  // jsoncpp's 1e+9999 is refused by strict readers: no JSON output holds a non-finite number.
  EXPECT_EQ(core::jsonDouble(std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(core::jsonDouble(-std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(styledJson(json{{"average", std::nan("")}}), "{\n\t\"average\" : null\n}\n");
}

TEST(JsonStyle, Scalars) {
  EXPECT_EQ(styledJson(json(12060)), "12060\n");
  EXPECT_EQ(styledJson(json(-7)), "-7\n");
  EXPECT_EQ(styledJson(json(18446744073709551615ull)), "18446744073709551615\n");
  EXPECT_EQ(styledJson(json(true)), "true\n");
  EXPECT_EQ(styledJson(json(nullptr)), "null\n");
  EXPECT_EQ(styledJson(json(2.5)), "2.5\n");
  EXPECT_EQ(styledJson(json("x")), "\"x\"\n");
}

TEST(JsonStyle, StringEscapes) {
  EXPECT_EQ(core::jsonQuoted("plain / text"), "\"plain / text\"");
  EXPECT_EQ(core::jsonQuoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(core::jsonQuoted("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
  EXPECT_EQ(core::jsonQuoted(std::string("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
  EXPECT_EQ(core::jsonQuoted(std::string("nul\0x", 5)), "\"nul\\u0000x\"");
  EXPECT_EQ(core::jsonQuoted("\x7f"), "\"\x7f\"");
}

TEST(JsonStyle, NonAsciiIsEscapedAsUtf16) {
  EXPECT_EQ(core::jsonQuoted("\xc3\xa9"), "\"\\u00e9\"");                 // e acute
  EXPECT_EQ(core::jsonQuoted("\xe2\x82\xac"), "\"\\u20ac\"");             // euro sign
  EXPECT_EQ(core::jsonQuoted("\xf0\x9f\x98\x80"), "\"\\ud83d\\ude00\"");  // emoji, surrogates
  EXPECT_EQ(core::jsonQuoted("\xc3"), "\"\\ufffd\"");                     // truncated
}

TEST(JsonStyle, EmptyContainersStayInline) {
  const json doc = {{"testcases", json::array()}, {"x", json::object()}};
  EXPECT_EQ(styledJson(doc), "{\n\t\"testcases\" : [],\n\t\"x\" : {}\n}\n");
  EXPECT_EQ(styledJson(json::object()), "{}\n");
}

TEST(JsonStyle, ArraysAreOneElementPerLine) {
  const json doc = {{"a", {1, 2.5, "s"}}};
  EXPECT_EQ(styledJson(doc), "{\n\t\"a\" : \n\t[\n\t\t1,\n\t\t2.5,\n\t\t\"s\"\n\t]\n}\n");
}

TEST(JsonStyle, ObjectsAndArraysInsideArraysOpenOnTheElementLine) {
  const json doc = json::array({json::object({{"k", json::array({1})}}), json::array({2})});
  EXPECT_EQ(styledJson(doc),
            "[\n\t{\n\t\t\"k\" : \n\t\t[\n\t\t\t1\n\t\t]\n\t},\n\t[\n\t\t2\n\t]\n]\n");
}

}  // namespace test_json_style
}  // namespace nvbw
