/*
 * compare_html.js — draws the --compare --report-html page from the JSON
 * embedded in it (doc/compare.md, "The page") with uPlot, loaded before
 * this script.  No network access.  For each comparison: the figures'
 * table with the verdicts, the diagnosis ("Why": its sentence, warnings,
 * what differs, the ranked evidence, the latency taken apart and the
 * host's CPU split as stacked bars), tps and latency p99 over time with
 * both sides overlaid and each run's checkpoints marked in its colour,
 * and both sides' latency distributions (cumulative, from the reports'
 * histograms).  When done, #status lists each chart and its number of
 * points ("ok tps-1:10 p99-1:10 cdf-1:40"), or "error: ...", for the
 * browser tests to read: this page's style hides it (display: none), so
 * the reader sees no such text.
 * File names, expressions and the diagnosis' texts are data: text nodes
 * (pgbPage.el, svgEl), never markup.
 */
(function () {
	"use strict";
	var el = pgbPage.el, warmupMark = pgbPage.warmupMark;
	var errors = [], drawn = [];
	var statusEl = document.getElementById("status");
	var root = document.getElementById("report");
	var colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];
	var SVG_NS = "http://www.w3.org/2000/svg";

	function setStatus() {
		if (!statusEl) return;
		statusEl.textContent = (errors.length ? "error: " + errors.join("; ") + " " : "ok ") +
			drawn.map(function (d) { return d.name + ":" + d.points; }).join(" ");
	}
	window.addEventListener("error", function (ev) { errors.push(String(ev.message)); setStatus(); });

	/*
	 * This page's own style (the shared style sheet is the run page's):
	 * the status is for the tests, never shown.
	 */
	document.head.appendChild(el("style", {}, [
		"#status { display: none; }\n" +
		".why .sentence { font-size: 1.15em; font-weight: 600; margin: 0.6em 0; padding: 0.5em 0.9em;" +
		" background: #f2f5fb; border-left: 4px solid #1f77b4; }\n" +
		".why .rule { color: #666; font-size: 0.9em; margin-top: -0.3em; }\n" +
		".why ul.warnings { color: #6a4a00; }\n" +
		".why h4 { margin: 1.1em 0 0.3em; font-size: 1em; }\n" +
		".why td.word { text-align: left; }\n" +
		"svg.stack text { font: 12px system-ui, sans-serif; fill: #333; }\n" +
		"svg.stack rect.part { stroke: #fff; stroke-width: 1; }\n" +
		".swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.4em;" +
		" vertical-align: -0.1em; border-radius: 2px; }\n"]));

	function fmt(v, digits) {
		if (v === null || v === undefined) return "–";
		return Number(v).toFixed(digits === undefined ? 3 : digits);
	}
	function sign(v, digits) { return v === null || v === undefined ? "–" : (v >= 0 ? "+" : "") + fmt(v, digits); }
	/* a value of an evidence, in its unit: three significant digits below 1; a share (%) to 0.1 */
	function val(v, unit) {
		if (v === null || v === undefined) return "–";
		var a = Math.abs(v);
		if (unit === "%" || unit === "percent") return v.toFixed(1) + "%";
		var s = a === 0 ? "0" : a >= 100 ? v.toFixed(1) : a >= 1 ? v.toFixed(3) : v.toPrecision(3);
		return unit === "count" || !unit ? s : s + (unit === "bytes" ? " B" : " " + unit);
	}
	/* a relative change and its 95% interval, in % */
	function changeText(v) { return v === null || v === undefined ? "–" : sign(v, 1) + "%"; }
	function intervalText(lo, hi, f) {
		f = f || changeText;
		return lo === null || lo === undefined ? "–" : "[" + f(lo) + ", " + f(hi) + "]";
	}
	function note(parent, text) { parent.appendChild(el("p", {"class": "note"}, [text])); }
	function table(cls, head, rows) {
		var t = el("table", {"class": cls});
		t.appendChild(el("tr", {}, head.map(function (h) { return el("th", {}, Array.isArray(h) ? h : [h]); })));
		rows.forEach(function (r) {
			t.appendChild(el("tr", {}, r.map(function (c) {
				return c instanceof Node && c.tagName === "TD" ? c : el("td", {}, [c]);
			})));
		});
		return t;
	}
	function textCell(s) { return el("td", {"class": "text"}, [s]); }
	function wordCell(s) { return el("td", {"class": "word"}, [s]); }

	/* An SVG element: attributes set one by one, its text a text node. */
	function svgEl(tag, attrs, text) {
		var e = document.createElementNS(SVG_NS, tag);
		Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
		if (text !== undefined) e.appendChild(document.createTextNode(String(text)));
		return e;
	}

	/* Bucket bounds of the log-linear histogram (include/pgbench/stats/histogram.h). */
	function bucketHigh(index, subBits) {
		var sub = Math.pow(2, subBits);
		var shift = index < 2 * sub ? 0 : Math.floor(index / sub) - 1;
		var width = Math.pow(2, shift);
		return (index - shift * sub) * width + width - 1;
	}

	/*
	 * A run's points as drawn: a last interval the run ended within is no
	 * cliff (the run's page does the same, doc/report-html.md).  Shorter
	 * than half an interval it is left out: its percentiles are of a few
	 * transactions, and this page has not the points' histograms to count
	 * it into the interval before, as the run's page does.  Longer, it
	 * stays (its tps is per second of its own length) and its segment is
	 * drawn dashed.  Returns {pts, last: "full", "left out" or "partial"}.
	 */
	function drawnPoints(run) {
		var pts = run.points, n = pts.length, iv = run.interval_s, end = pts[n - 1];
		/* a tick is read a little late: within 5% an interval is whole */
		if (n < 2 || !(iv > 0) || !(end[4] < iv * 0.95))
			return {pts: pts, last: "full"};
		if (end[4] < iv / 2)
			return {pts: pts.slice(0, n - 1), last: "left out", ms: end[4] * 1000};
		return {pts: pts, last: "partial", ms: end[4] * 1000};
	}

	/*
	 * A uPlot plugin that marks each run's checkpoints ({color,
	 * checkpoints: [[start_s or null, ended_by_s]]}) in the run's colour:
	 * a light band from its start to the end of the interval it was seen
	 * to end in (a line when the start is unknown or the band is narrower
	 * than 2 px), and a strip at the plot's foot, a row per run, so two
	 * runs' checkpoints at the same time stay apart.  One beyond an edge
	 * (ended in a last interval left out, or a tick read before the first
	 * point's) is marked at that edge.  The chart's box says how many it
	 * drew in data-marks (the browser test reads it).
	 */
	function checkpointMarks(runs) {
		return {hooks: {drawClear: [function (u) {
			var ctx = u.ctx, b = u.bbox, left = b.left, right = b.left + b.width, n = 0;
			var row = 5 * (window.devicePixelRatio || 1);
			ctx.save();
			runs.forEach(function (r, k) {
				r.checkpoints.forEach(function (c) {
					var x1 = u.valToPos(c[1], "x", true);
					var x0 = c[0] === null ? x1 : u.valToPos(c[0], "x", true);
					if (!isFinite(x0) || !isFinite(x1)) return;
					x0 = Math.min(Math.max(x0, left), right);
					x1 = Math.min(Math.max(x1, left), right);
					if (x1 - x0 >= 2) {
						ctx.fillStyle = r.color + "22";
						ctx.fillRect(x0, b.top, x1 - x0, b.height);
					} else {
						ctx.strokeStyle = r.color + "aa";
						ctx.lineWidth = 2;
						ctx.beginPath();
						ctx.moveTo(x1, b.top);
						ctx.lineTo(x1, b.top + b.height);
						ctx.stroke();
						x0 = Math.max(x1 - 2, left);
					}
					ctx.fillStyle = r.color + "cc";
					ctx.fillRect(x0, b.top + b.height - (k + 1) * row, Math.max(x1 - x0, 2), row - 1);
					n++;
				});
			});
			ctx.restore();
			u.root.parentNode.setAttribute("data-marks", String(n));
		}]}};
	}

	/*
	 * One chart: lines [{label, color, x: [...], y: [...], partialLast}]
	 * put on one x axis by uPlot's join.  A line whose last interval is
	 * partial ends one point early; a dashed twin draws its last segment.
	 * opts: logX, warmup (s), marks (checkpointMarks' runs).
	 */
	function chart(name, title, xLabel, yLabel, lines, opts) {
		opts = opts || {};
		lines = lines.reduce(function (all, l) {
			if (!l.partialLast || l.x.length < 2)
				return all.concat([l]);
			var n = l.x.length;
			return all.concat([{label: l.label, color: l.color, x: l.x.slice(0, n - 1), y: l.y.slice(0, n - 1)},
				{label: l.label + " (last interval partial)", color: l.color, dash: [6, 4],
					x: l.x.slice(n - 2), y: l.y.slice(n - 2)}]);
		}, []);
		var marks = opts.marks || [];
		var nMarks = marks.reduce(function (s, r) { return s + r.checkpoints.length; }, 0);
		var box = el("div", {"class": "chart", id: "chart-" + name, "data-checkpoints": nMarks});
		root.appendChild(el("h3", {}, [title]));
		root.appendChild(box);
		var plugins = (nMarks > 0 ? [checkpointMarks(marks)] : []).concat(opts.warmup > 0 ? [warmupMark(opts.warmup)] : []);
		var data = uPlot.join(lines.map(function (l) { return [l.x, l.y]; }));
		var u = new uPlot({
			width: Math.min(960, root.clientWidth || 960), height: 260,
			scales: {x: {time: false, distr: opts.logX ? 3 : 1}},
			plugins: plugins,
			axes: [{label: xLabel}, {label: yLabel}],
			series: [{label: xLabel}].concat(lines.map(function (l) {
				var s = {label: l.label, stroke: l.color, width: 1.5, spanGaps: true,
					points: {show: data[0].length < 60}};
				if (l.dash) s.dash = l.dash;
				return s;
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

	/* The diagnosis' warnings and what differs between the runs. */
	function differences(box, d) {
		if (d.warnings.length) {
			var ul = el("ul", {"class": "warnings"});
			d.warnings.forEach(function (w) { ul.appendChild(el("li", {"data-code": w.code}, [w.text])); });
			box.appendChild(ul);
		}
		box.appendChild(el("h4", {}, ["What differs between the runs"]));
		if (!d.differences.length) {
			note(box, "nothing differs: the same settings, scripts, server and host");
			return;
		}
		box.appendChild(table("differences", ["what", "kind", "base", "new"], d.differences.map(function (x) {
			return [textCell(x.what), wordCell(x.kind), textCell(x.base), textCell(x["new"])];
		})));
		if (d.differences_more > 0)
			note(box, "and " + d.differences_more + " more differences, not listed");
	}

	/*
	 * The evidence ranked (rank > 0), in rank order: per transaction on
	 * each side, its change and 95% interval, its share of the latency's
	 * change; then what one side lacks (not available, never 0).
	 */
	function evidence(box, list) {
		var ranked = list.filter(function (e) { return e.rank > 0; })
			.sort(function (a, b) { return a.rank - b.rank; });
		box.appendChild(el("h4", {}, ["What changed beyond its noise (per transaction, ranked)"]));
		if (!ranked.length)
			note(box, "no evidence changed beyond its noise");
		else
			box.appendChild(table("evidence", ["#", "evidence", "source", "base → new", "change", "95% interval",
				"share of the latency change", "verdict"], ranked.map(function (e) {
				return [e.rank, textCell(e.name), wordCell(e.source), val(e.base, e.unit) + " → " + val(e["new"], e.unit),
					e.change_relative === null && e.base === 0 ? "from 0" : changeText(e.change_relative),
					e.low_relative === null && e.low !== null
						? intervalText(e.low, e.high, function (v) { return val(v, e.unit); })
						: intervalText(e.low_relative, e.high_relative),
					e.latency_share === null ? "–" : sign(e.latency_share, 1) + "%",
					textCell(e.verdict === null ? "–" : e.reason_code ? e.verdict + ": " + e.reason_code : e.verdict)];
			})));
		["base", "new"].forEach(function (side) {
			var lacking = list.filter(function (e) { return !e["available_" + side]; })
				.map(function (e) { return e.name; });
			if (lacking.length)
				box.appendChild(el("p", {"class": "note not-available", "data-side": side},
					["not available on " + side + " (not ranked): " + lacking.join(", ")]));
		});
		var rest = list.filter(function (e) { return e.rank === 0 && e.available_base && e.available_new; }).length;
		if (rest)
			note(box, rest + " more evidence on both sides, not ranked: no change beyond its noise");
	}

	/*
	 * Horizontal stacked bars on one scale: rows [{label, values,
	 * available, total}], segment j of keys[j] ({name, color}), max the
	 * scale's end.  Each segment is a rect of class "part" titled with
	 * its name and value; each row a group of class "bar" (data-side).
	 */
	function stackBars(cls, rows, keys, unit, max) {
		var W = 820, labelW = 48, valW = 190, barH = 22, gap = 10;
		var scale = max > 0 ? (W - labelW - valW) / max : 0;
		var svg = svgEl("svg", {"class": "stack " + cls, width: W, height: rows.length * (barH + gap),
			viewBox: "0 0 " + W + " " + rows.length * (barH + gap)});
		rows.forEach(function (r, i) {
			var y = i * (barH + gap), x = labelW;
			var g = svgEl("g", {"class": "bar", "data-side": r.label});
			g.appendChild(svgEl("text", {x: 0, y: y + barH * 0.7}, r.label));
			if (r.available) {
				r.values.forEach(function (v, j) {
					if (!(v > 0) || !(scale > 0)) return;
					var w = v * scale;
					var rect = svgEl("rect", {"class": "part", x: x, y: y, width: Math.max(w, 0.5), height: barH,
						fill: keys[j].color, "data-part": j});
					rect.appendChild(svgEl("title", {}, r.label + ", " + keys[j].name + ": " + val(v, unit)));
					g.appendChild(rect);
					x += w;
				});
			}
			g.appendChild(svgEl("text", {x: x + 6, y: y + barH * 0.7},
				r.available ? r.total : "not available"));
			svg.appendChild(g);
		});
		return svg;
	}
	function swatch(color, name) {
		return el("td", {"class": "text"}, [el("span", {"class": "swatch", style: "background:" + color}), name]);
	}

	var PART_COLORS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
		"#ff9da7", "#9c755f"];
	/*
	 * The latency per transaction taken apart: a bar per side on one ms
	 * scale, a segment per part, and the legend with each part's ms and
	 * its change (absolute, ms) with its 95% interval.
	 */
	function breakdown(box, b) {
		box.appendChild(el("h4", {}, ["The latency per transaction taken apart (ms)"]));
		if (!b || !b.parts.length || (!b.available_base && !b.available_new)) {
			note(box, "not available: neither side's backends were sampled in every state");
			return;
		}
		var keys = b.parts.map(function (p, i) {
			return {name: p.name, color: /^outside/.test(p.name) ? "#bab0ac" : PART_COLORS[i % PART_COLORS.length]};
		});
		var sum = function (k) { return b.parts.reduce(function (s, p) { return s + (p[k] > 0 ? p[k] : 0); }, 0); };
		var max = Math.max(sum("base_ms"), sum("new_ms"), b.latency_base_ms || 0, b.latency_new_ms || 0);
		box.appendChild(stackBars("breakdown", [
			{label: "base", available: b.available_base, values: b.parts.map(function (p) { return p.base_ms; }),
				total: "latency average " + val(b.latency_base_ms, "ms")},
			{label: "new", available: b.available_new, values: b.parts.map(function (p) { return p.new_ms; }),
				total: "latency average " + val(b.latency_new_ms, "ms")}], keys, "ms", max));
		var ms = function (v) { return v === null || v === undefined ? "–" : sign(v, 3) + " ms"; };
		box.appendChild(table("breakdown-legend", ["part", "base (ms)", "new (ms)", "change", "95% interval", "verdict"],
			b.parts.map(function (p, i) {
				return [swatch(keys[i].color, p.name), val(p.base_ms), val(p.new_ms), ms(p.change_ms),
					intervalText(p.low_ms, p.high_ms, ms), textCell(p.verdict === null ? "–" : p.verdict)];
			}).concat([[textCell("latency average"), val(b.latency_base_ms), val(b.latency_new_ms), "", "", ""]])));
		["base", "new"].forEach(function (side) {
			if (!b["available_" + side])
				note(box, "not available on " + side + ": its backends were not sampled in every state");
		});
	}

	var HOST_PARTS = [{key: "client_pct", name: "pgbench", color: "#1f77b4"},
		{key: "server_pct", name: "the local server", color: "#d62728"},
		{key: "rest_pct", name: "the rest of the host", color: "#8c564b"},
		{key: "idle_pct", name: "idle", color: "#e0e0e0"}];
	/* The client host's CPU split per side, in % of its CPUs. */
	function hostSplit(box, host) {
		box.appendChild(el("h4", {}, ["The client host's CPU (% of its CPUs)"]));
		if (!host || (!host.base.available && !host["new"].available)) {
			note(box, "not available: the host was not read on either side");
			return;
		}
		var row = function (side) {
			var h = host[side];
			return {label: side, available: h.available, values: HOST_PARTS.map(function (p) { return h[p.key]; }),
				total: h.available ? h.cpus + " CPUs" : ""};
		};
		box.appendChild(stackBars("host", [row("base"), row("new")], HOST_PARTS, "%", 100));
		box.appendChild(table("host-legend", ["side", "CPUs"].concat(HOST_PARTS.map(function (p) {
			return [el("span", {"class": "swatch", style: "background:" + p.color}), p.name];
		})).concat(["busiest worker thread (% of a CPU)"]), ["base", "new"].map(function (side) {
			var h = host[side];
			if (!h.available)
				return [side, textCell("not read")].concat(HOST_PARTS.map(function () { return ""; })).concat([""]);
			return [side, h.cpus].concat(HOST_PARTS.map(function (p) {
				return h[p.key] === null ? (p.key === "server_pct" ? "not read" : "–") : val(h[p.key], "%");
			})).concat([val(h.busiest_thread_cpu_pct, "%")]);
		})));
	}

	/* "Why": the comparison's diagnosis (doc/compare.md, "The page"). */
	function why(cmp, k) {
		var d = cmp.diagnosis;
		var box = el("section", {"class": "why", id: "why-" + k});
		box.appendChild(el("h3", {}, ["Why"]));
		root.appendChild(box);
		if (!d) {
			note(box, "no diagnosis in the comparison");
			return;
		}
		box.appendChild(el("p", {"class": "sentence"}, [d.sentence]));
		if (d.rule)
			box.appendChild(el("p", {"class": "rule"}, ["the rule that fits: " + d.rule]));
		differences(box, d);
		evidence(box, d.evidence);
		breakdown(box, d.breakdown);
		hostSplit(box, d.host);
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

	/* The notes under the charts over time: warm-up, partial last intervals, checkpoints. */
	function timeNotes(sides, warmup) {
		if (warmup > 0)
			note(root, "shaded at the start: the warm-up (" + warmup +
				" s), run but left out of every figure and of the comparison");
		sides.forEach(function (r) {
			if (r.drawn.last === "left out")
				note(root, r.side + " " + r.file + " ended " + fmt(r.drawn.ms, 1) +
					" ms into its last interval: that interval is left out of the charts");
			else if (r.drawn.last === "partial")
				note(root, r.side + " " + r.file + " ended " + fmt(r.drawn.ms, 1) +
					" ms into its last interval: its segment is dashed");
		});
		var cps = sides.filter(function (r) { return r.checkpoints.length; });
		if (cps.length)
			note(root, "marked over time, in each run's colour: its checkpoints (" + cps.map(function (r) {
				return r.checkpoints.length + " in " + r.side + " " + r.file;
			}).join(", ") + "), from the start to the end of the interval each was seen to end in" +
				" (a line when the start is unknown), and a strip per run at the foot");
	}

	/* One comparison: its figures, why, and the charts of its runs and the base's. */
	function comparison(data, cmp, k) {
		var sides = data.runs.filter(function (r) { return r.side === "base" || r.side === "new " + k; });
		sides.forEach(function (r, i) {
			r.color = colors[i % colors.length];
			r.drawn = drawnPoints(r);
		});
		root.appendChild(el("h2", {}, ["new " + k + ": " + cmp["new"].map(function (r) { return r.file; }).join(", ")]));
		figuresTable(cmp);
		why(cmp, k);
		function over(col) {
			return sides.map(function (r) {
				return {label: r.side + " " + r.file, color: r.color, partialLast: r.drawn.last === "partial",
					x: r.drawn.pts.map(function (p) { return p[0]; }), y: r.drawn.pts.map(function (p) { return p[col]; })};
			});
		}
		var warmup = Math.max.apply(null, sides.map(function (r) { return r.warmup_s || 0; }));
		var marks = sides.map(function (r) { return {color: r.color, checkpoints: r.checkpoints}; });
		timeNotes(sides, warmup);
		chart("tps-" + k, "tps over time", "seconds since start", "tps", over(1), {warmup: warmup, marks: marks});
		chart("p99-" + k, "latency p99 over time", "seconds since start", "ms", over(3), {warmup: warmup, marks: marks});
		chart("cdf-" + k, "latency distribution (cumulative)", "latency (ms)", "% of transactions",
			sides.filter(function (r) { return r.buckets.length > 0; }).map(function (r) {
				var c = cdf(r);
				return {label: r.side + " " + r.file, color: r.color, x: c.x, y: c.y};
			}), {logX: true});
	}

	function draw(data) {
		var doc = data.comparison;
		root.appendChild(el("h1", {}, ["pgbench comparison"]));
		root.appendChild(el("p", {}, ["base: " + doc.base.map(function (r) { return r.file; }).join(", ") +
			" (" + (doc.level * 100) + "% intervals from " + doc.method + ")"]));
		doc.comparisons.forEach(function (cmp, i) { comparison(data, cmp, i + 1); });
	}

	try {
		draw(JSON.parse(document.getElementById("compare-data").textContent));
	} catch (e) {
		errors.push(String(e && e.message || e));
	}
	setStatus();
})();
