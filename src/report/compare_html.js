/*
 * compare_html.js — draws the --compare --report-html page from the JSON
 * embedded in it (doc/compare.md, "The page") with uPlot, loaded before
 * this script.  No network access.  For each comparison: the figures'
 * table with the verdicts, tps and latency p99 over time with both sides
 * overlaid, and both sides' latency distributions (cumulative, from the
 * reports' histograms).  When done, #status lists each chart and its
 * number of points ("ok tps-1:10 p99-1:10 cdf-1:40"), or "error: ...".
 * File names and expressions are data: text, never markup.
 */
(function () {
	"use strict";
	var el = pgbPage.el, warmupMark = pgbPage.warmupMark;
	var errors = [], drawn = [];
	var statusEl = document.getElementById("status");
	var root = document.getElementById("report");
	var colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];

	function setStatus() {
		statusEl.textContent = (errors.length ? "error: " + errors.join("; ") + " " : "ok ") +
			drawn.map(function (d) { return d.name + ":" + d.points; }).join(" ");
	}
	window.addEventListener("error", function (ev) { errors.push(String(ev.message)); setStatus(); });

	function fmt(v, digits) {
		if (v === null || v === undefined) return "–";
		return Number(v).toFixed(digits === undefined ? 3 : digits);
	}
	function sign(v, digits) { return v === null ? "–" : (v >= 0 ? "+" : "") + fmt(v, digits); }

	/* Bucket bounds of the log-linear histogram (include/pgbench/stats/histogram.h). */
	function bucketHigh(index, subBits) {
		var sub = Math.pow(2, subBits);
		var shift = index < 2 * sub ? 0 : Math.floor(index / sub) - 1;
		var width = Math.pow(2, shift);
		return (index - shift * sub) * width + width - 1;
	}

	function chart(name, title, xLabel, yLabel, lines, opts) {
		/* lines: [{label, x: [...], y: [...]}], put on one x axis by uPlot's join */
		var box = el("div", {"class": "chart", id: "chart-" + name});
		root.appendChild(el("h3", {}, [title]));
		root.appendChild(box);
		var data = uPlot.join(lines.map(function (l) { return [l.x, l.y]; }));
		var u = new uPlot({
			width: Math.min(960, root.clientWidth || 960), height: 260,
			scales: {x: {time: false, distr: opts && opts.logX ? 3 : 1}},
			plugins: opts && opts.warmup > 0 ? [warmupMark(opts.warmup)] : [],
			axes: [{label: xLabel}, {label: yLabel}],
			series: [{label: xLabel}].concat(lines.map(function (l, i) {
				return {label: l.label, stroke: colors[i % colors.length], width: 1.5, spanGaps: true,
					points: {show: data[0].length < 60}};
			}))
		}, data, box);
		drawn.push({name: name, points: u.data[0].length});
	}

	function figuresTable(cmp) {
		var t = el("table", {"class": "summary"});
		t.appendChild(el("tr", {}, ["figure", "base", "new", "change", "95% interval", "verdict"].map(function (h) {
			return el("th", {}, [h]);
		})));
		cmp.figures.forEach(function (f) {
			/* the change relative to the base (%), the failed share's in points */
			var unit = f.relative_unit === "pp" ? " pp" : "%";
			function ch(v) { return v === null ? "–" : sign(v, 1) + unit; }
			var verdict = f.reason ? f.verdict + ": " + f.reason : f.verdict;
			t.appendChild(el("tr", {"class": "verdict-" + f.verdict.replace(/ /g, "-")}, [
				el("th", {}, [f.figure]), el("td", {}, [fmt(f.base)]), el("td", {}, [fmt(f.new)]),
				el("td", {}, [ch(f.change_relative)]),
				el("td", {}, [f.low_relative === null ? "–" : "[" + ch(f.low_relative) + ", " + ch(f.high_relative) + "]"]),
				el("td", {"class": "text"}, [verdict])]));
		});
		root.appendChild(t);
		if (cmp.thresholds) {
			root.appendChild(el("h3", {}, ["Thresholds"]));
			var th = el("table", {"class": "thresholds"});
			cmp.thresholds.forEach(function (r) {
				th.appendChild(el("tr", {}, [el("td", {"class": "text"}, [r.expression]),
					el("td", {"class": "text"}, [r.outcome === "failed" ? "FAILED" : r.outcome]), el("td", {}, [fmt(r.value)])]));
			});
			root.appendChild(th);
		}
	}

	function cdf(run) {
		var total = 0, seen = 0, x = [], y = [];
		run.buckets.forEach(function (b) { total += b[1]; });
		run.buckets.forEach(function (b) {
			seen += b[1];
			x.push(Math.max(bucketHigh(b[0], run.sub_bucket_bits), 1) / 1000);
			y.push(100 * seen / total);
		});
		return {x: x, y: y};
	}

	function draw(data) {
		var doc = data.comparison;
		root.appendChild(el("h1", {}, ["pgbench comparison"]));
		root.appendChild(el("p", {}, ["base: " + doc.base.map(function (r) { return r.file; }).join(", ") +
			" (" + (doc.level * 100) + "% intervals from " + doc.method + ")"]));
		doc.comparisons.forEach(function (cmp, i) {
			var k = i + 1;
			var sides = data.runs.filter(function (r) { return r.side === "base" || r.side === "new " + k; });
			root.appendChild(el("h2", {}, ["new " + k + ": " + cmp["new"].map(function (r) { return r.file; }).join(", ")]));
			figuresTable(cmp);
			function over(col) {
				return sides.map(function (r) {
					return {label: r.side + " " + r.file, x: r.points.map(function (p) { return p[0]; }),
						y: r.points.map(function (p) { return p[col]; })};
				});
			}
			var warmup = Math.max.apply(null, sides.map(function (r) { return r.warmup_s || 0; }));
			if (warmup > 0)
				root.appendChild(el("p", {}, ["shaded at the start: the warm-up (" + warmup +
					" s), run but left out of every figure and of the comparison"]));
			chart("tps-" + k, "tps over time", "seconds since start", "tps", over(1), {warmup: warmup});
			chart("p99-" + k, "latency p99 over time", "seconds since start", "ms", over(3), {warmup: warmup});
			chart("cdf-" + k, "latency distribution (cumulative)", "latency (ms)", "% of transactions",
				sides.filter(function (r) { return r.buckets.length > 0; }).map(function (r) {
					var c = cdf(r);
					return {label: r.side + " " + r.file, x: c.x, y: c.y};
				}), {logX: true});
		});
	}

	try {
		draw(JSON.parse(document.getElementById("compare-data").textContent));
	} catch (e) {
		errors.push(String(e && e.message || e));
	}
	setStatus();
})();
