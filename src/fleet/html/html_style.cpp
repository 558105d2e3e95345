// The report's style sheet. It goes into <style> unescaped (HTML parsers read style content as
// raw text, where an entity would stay literal), so it must hold no <, >, & or quotes; the tests
// check the page parses as XML, which such a character would break.
#include "fleet/html/html_sections.h"

namespace nvbw::html {

const char* reportStyleSheet() {
  return R"(
body { font-family: system-ui, sans-serif; margin: 16px 24px; color: #1a1a1a;
  background: #ffffff; font-size: 14px; }
h1 { font-size: 22px; margin: 0 0 8px; }
h2 { font-size: 18px; border-bottom: 1px solid #cccccc; padding-bottom: 4px; margin: 24px 0 8px; }
h3 { font-size: 15px; margin: 12px 0 6px; }
.columns { display: flex; flex-wrap: wrap; gap: 8px 32px; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d0d0d0; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; font-weight: 600; }
table.gpus { font-size: 12px; }
td.unknown { color: #888888; font-style: italic; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.table-scroll, .heatmap-scroll { overflow-x: auto; max-width: 100%; }
ul.gpu-list { margin: 4px 0; font-family: monospace; }
.warnings { background: #fff6d6; border: 1px solid #e0c060; padding: 2px 12px; margin-top: 12px; }
.run-error, .entry-error { color: #b00020; font-weight: 600; }
.nvml-problem { color: #8a5a00; }
.entries { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
article.entry { border: 1px solid #d8d8d8; border-radius: 6px; padding: 8px 12px;
  background: #fcfcfc; max-width: 100%; box-sizing: border-box; flex: 0 1 380px; }
article.entry h3 { margin-top: 0; display: flex; flex-wrap: wrap; gap: 8px; align-items: baseline; }
.entry-name { font-family: monospace; font-size: 14px; overflow-wrap: anywhere; }
.buffer-size { font-weight: normal; color: #444444; }
.status { font-size: 11px; padding: 1px 6px; border-radius: 8px; color: #ffffff; }
.status-Passed { background: #2e7d32; }
.status-Waived { background: #6b6b6b; }
.status-ERROR { background: #b00020; }
.status-Running { background: #c25100; }
.description { margin: 2px 0 6px; }
.part-of, .waive-reason { color: #555555; margin: 2px 0; }
figure { margin: 4px 0 0; }
figcaption { font-size: 12px; color: #444444; max-width: 400px; margin: 4px 0; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 12px; align-items: center;
  margin: 4px 0; max-width: 420px; }
.legend-item { display: inline-flex; gap: 6px; align-items: center; }
.outlier-swatch { display: inline-block; width: 8px; height: 8px; border: 3px solid #e00000; }
.slower-mark { color: #ff3b30; }
.faster-mark { color: #1e90ff; }
.unstable-mark { color: #ff9500; }
.noisy-mark { color: #8e8e93; }
.below-swatch { display: inline-block; width: 14px; height: 4px; background: #b00020; }
.above-peak-swatch { display: inline-block; width: 10px; height: 10px; border: 2px dashed #8e24aa; }
.above-peak { border-left: 4px solid #8e24aa; padding-left: 8px; font-size: 12px; max-width: 400px; }
.verdict-UNSTABLE { color: #b00020; font-weight: 600; }
.expectations .failed { color: #b00020; font-weight: 600; }
.expectations .passed { color: #2e7d32; font-weight: 600; }
p.sum { font-family: monospace; font-weight: 600; margin: 4px 0; overflow-wrap: anywhere; }
.min-max, .link-peaks { font-size: 12px; margin: 2px 0; color: #333333; max-width: 400px; }
.outliers { border-left: 4px solid #e00000; padding-left: 8px; font-size: 12px; margin-top: 6px;
  max-width: 400px; }
.outliers ul { margin: 2px 0; padding-left: 18px; }
.comparison-summary { font-weight: 600; }
.verdict-SLOWER { color: #b00020; font-weight: 600; }
.verdict-FASTER { color: #1565c0; font-weight: 600; }
.verdict-NOISY { color: #8a6d00; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
figure.sweep-chart { border: 1px solid #d8d8d8; border-radius: 6px; padding: 8px; }
svg text { font-family: system-ui, sans-serif; }
.cell-value { font-weight: 600; }
)";
}

}  // namespace nvbw::html
