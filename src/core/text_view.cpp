#include "core/text_view.h"

#include "core/escape.h"

namespace nvbw::text_view {

std::string safe(const std::string& text) { return escapeForTerminal(text, 200); }

std::vector<std::string> safeAll(const std::vector<std::string>& texts) {
  std::vector<std::string> out;
  out.reserve(texts.size());
  for (const std::string& text : texts) out.push_back(safe(text));
  return out;
}

std::string wrappedList(const std::string& title, const std::vector<std::string>& items,
                        bool counted) {
  if (items.empty()) return "";
  std::string text;
  std::string line =
      title + (counted ? " (" + std::to_string(items.size()) + "):" : std::string(":"));
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string item = items[i] + (i + 1 < items.size() ? "," : "");
    if (line.size() + 1 + item.size() > kTextWidth && line.size() > 1) {
      text += line + "\n";
      line = " ";
    }
    line += " " + item;
  }
  return text + line + "\n";
}

}  // namespace nvbw::text_view
