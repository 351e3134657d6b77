/*
 * html_assets.h — the files the report pages embed (--report-html, and
 * the offline tools' --compare and --sweep pages),
 * compiled in at build time by scripts/embed.pl (src/meson.build): the
 * vendored uPlot (vendor/uplot, see its README) and our page script and
 * style (src/report/report_html.js, src/report/report_html.css).  Each array holds the
 * file's bytes and a final NUL; *_len is the length without it.
 */
#ifndef PGBENCH_REPORT_HTML_ASSETS_H
#define PGBENCH_REPORT_HTML_ASSETS_H

#include <stddef.h>

extern const char report_asset_uplot_js[];
extern const size_t report_asset_uplot_js_len;
extern const char report_asset_uplot_css[];
extern const size_t report_asset_uplot_css_len;
extern const char report_asset_page_js[];
extern const size_t report_asset_page_js_len;
extern const char report_asset_page_css[];
extern const size_t report_asset_page_css_len;
extern const char report_asset_uplot_license[];
extern const size_t report_asset_uplot_license_len;
extern const char report_asset_compare_js[];	/* --compare's page */
extern const size_t report_asset_compare_js_len;
extern const char report_asset_common_js[];	/* every page's helpers, before its own */
extern const size_t report_asset_common_js_len;
extern const char report_asset_sweep_js[];	/* --sweep's page */
extern const size_t report_asset_sweep_js_len;

#endif
