/*
 * report_html.js — draws the --report-html page from the JSON document
 * embedded in it (doc/report-json.md) with uPlot, loaded before this
 * script.  No network access.  When done, #status lists each chart and
 * its number of points ("ok tps:8 latency:8 ..."), or "error: ..." (the
 * browser test reads it; doc/report-html.md).
 */
(function () {
	"use strict";
	var errors = [];
	var drawn = [];
	var statusEl = document.getElementById("status");

	function setStatus() {
		var parts = drawn.map(function (d) { return d.name + ":" + d.points; });
		statusEl.textContent = (errors.length ? "error: " + errors.join("; ") + " " : "ok ") + parts.join(" ");
	}
	window.addEventListener("error", function (ev) {
		errors.push(ev.message);
		setStatus();
	});

	/*
	 * The one way text reaches the page: an element whose attributes are
	 * set with setAttribute and whose children are elements or text nodes
	 * (anything not an element becomes the text of String(c)).  Never
	 * innerHTML: a file name, a command's SQL or a server message from
	 * the document shows as the characters it holds, markup or not.
	 */
	function el(tag, attrs, children) {
		var e = document.createElement(tag);
		Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
		(children || []).forEach(function (c) {
			e.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
		});
		return e;
	}
	function fmt(v, digits) {
		if (v === null || v === undefined) return "–";
		if (typeof v !== "number") return String(v);
		return Number.isInteger(v) && digits === undefined ? String(v) : v.toFixed(digits === undefined ? 3 : digits);
	}
	function table(cls, head, rows) {
		var t = el("table", {"class": cls});
		if (head) t.appendChild(el("tr", {}, head.map(function (h) { return el("th", {}, [h]); })));
		rows.forEach(function (r) {
			t.appendChild(el("tr", {}, r.map(function (c, i) {
				if (cls === "summary" && i === 0) return el("th", {}, [c]);
				var isText = typeof c === "string" && i > 0 && isNaN(Number(c));
				return el("td", isText ? {"class": "text"} : {}, [typeof c === "string" ? c : fmt(c)]);
			})));
		});
		return t;
	}

	var root = document.getElementById("report");
	function section(title) {
		root.appendChild(el("h2", {}, [title]));
	}
	function note(text) {
		root.appendChild(el("p", {"class": "note"}, [text]));
	}

	/* One uPlot chart: x values, series [{label, values}], axis labels. */
	function chart(name, title, x, series, opts) {
		opts = opts || {};
		var box = el("div", {"class": "chart", "id": "chart-" + name});
		root.appendChild(el("h3", {}, [title]));
		root.appendChild(box);
		var colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"];
		var u = new uPlot({
			width: Math.min(960, (root.clientWidth || 960)),
			height: 260,
			scales: {x: {time: false, distr: opts.logX ? 3 : 1}, y: {distr: opts.logY ? 3 : 1}},
			axes: [{label: opts.xLabel || "seconds since start"}, {label: opts.yLabel || ""}],
			series: [{label: opts.xLabel || "t"}].concat(series.map(function (s, i) {
				var d = {label: s.label, stroke: colors[i % colors.length], width: 1.5,
						 spanGaps: false, points: {show: x.length < 60}};
				if (opts.bars && uPlot.paths && uPlot.paths.bars) {
					d.paths = uPlot.paths.bars({size: [0.9, 40]});
					d.fill = colors[i % colors.length] + "88";
				}
				return d;
			}))
		}, [x].concat(series.map(function (s) { return s.values; })), box);
		drawn.push({name: name, points: u.data[0].length});
		return u;
	}

	/* Bucket bounds of the log-linear histogram (include/pgbench/histogram.h). */
	function bucketBounds(index, subBits) {
		var sub = Math.pow(2, subBits);
		var shift = index < 2 * sub ? 0 : Math.floor(index / sub) - 1;
		var top = index - shift * sub;
		var width = Math.pow(2, shift);
		return {lowest: top * width, highest: top * width + width - 1};
	}

	function summary(doc) {
		var s = doc.settings, lat = doc.latency_ms, tx = doc.transactions;
		var outcome = doc.outcome !== undefined ? doc.outcome : (doc.aborted ? "aborted" : "completed");
		var rows = [
			["program", "pgbench " + doc.pgbench_version + " (compat " + doc.compat + ")"],
			["server", doc.server_version || "–"],
			["connection", doc.connection ? [doc.connection.host, doc.connection.port, doc.connection.database].join(" / ") : "–"],
			["command line", (doc.command_line || []).join(" ")],
			["started", doc.start_time || "–"],
			["ended", doc.end_time || "–"],
			["outcome", outcome],
			["transaction type", s.transaction_type],
			["scaling factor", s.scaling_factor],
			["query mode", s.query_mode],
			["clients / threads", s.clients + " / " + s.threads],
			["rate (-R)", s.rate_tps === null ? "–" : s.rate_tps + " tps"],
			["duration", fmt(doc.duration_s) + " s"],
			["tps", fmt(doc.tps)],
			["processed", tx.processed],
			["failed", tx.failed],
			["skipped", tx.skipped],
			["retried / retries", tx.retried + " / " + tx.retries],
			["latency average", fmt(lat.average) + " ms (stddev " + fmt(lat.stddev) + ")"],
			["latency min / max", fmt(lat.min) + " / " + fmt(lat.max) + " ms"]
		];
		Object.keys(lat.percentiles).forEach(function (k) {
			rows.push(["latency " + k, fmt(lat.percentiles[k]) + " ms"]);
		});
		if (doc.lag_ms) rows.push(["lag average / max", fmt(doc.lag_ms.average) + " / " + fmt(doc.lag_ms.max) + " ms"]);
		root.appendChild(el("h1", {}, ["pgbench report"]));
		root.appendChild(table("summary", null, rows));
		if (doc.aborted_clients && doc.aborted_clients.length) {
			section("Aborted clients");
			root.appendChild(table("aborts", ["client", "at (s)", "kind", "message"],
				doc.aborted_clients.map(function (a) { return [a.client, fmt(a.at_s), a.kind, a.line]; })));
		}
	}

	/* --reconnect: the clients' outages (doc/report-json.md, "reconnect") */
	function reconnects(doc) {
		var r = doc.reconnect;
		if (!r) return;
		section("Reconnects");
		root.appendChild(table("reconnect", null, [
			["connection losses", r.losses],
			["reconnects", r.reconnects],
			["failed transactions (connection lost)", r.failed],
			["downtime window", fmt(r.window_ms) + " ms" + (r.first_loss_s === null ? "" :
				" (from " + fmt(r.first_loss_s) + " s to " + fmt(r.last_back_s) + " s)")],
			["maximum downtime of a client", fmt(r.downtime_max_ms) + " ms"],
			["total downtime of clients", fmt(r.downtime_total_ms) + " ms"],
			["clients disconnected at the end", r.clients_down_at_end]
		]));
	}

	function overTime(doc) {
		var series = doc.series;
		section("Over time");
		if (!series || !series.points.length) {
			note("no series recorded");
			return;
		}
		var pts = series.points;
		var x = pts.map(function (p) { return p.t_s; });
		var col = function (f) { return pts.map(f); };
		if (series.incomplete) note("memory ran short while recording: the series is incomplete");
		chart("tps", "Transactions per second (interval " + series.interval_s + " s)", x,
			[{label: "tps", values: col(function (p) { return p.tps; })}], {yLabel: "tps"});
		chart("latency", "Latency percentiles (ms)", x,
			["p50", "p90", "p99", "p99.9", "max"].map(function (k) {
				return {label: k, values: col(function (p) { return p.latency_ms[k]; })};
			}), {yLabel: "ms"});
		chart("failures", "Failures, retries and skipped transactions per interval", x,
			["failures", "retries", "skipped"].map(function (k) {
				return {label: k, values: col(function (p) { return p[k]; })};
			}), {yLabel: "count"});
		if (doc.settings.rate_tps !== null) {
			chart("lag", "Schedule lag under -R (ms)", x,
				[{label: "average", values: col(function (p) { return p.lag_ms ? p.lag_ms.average : null; })},
				 {label: "max", values: col(function (p) { return p.lag_ms ? p.lag_ms.max : null; })}],
				{yLabel: "ms"});
		} else
			note("no -R: no schedule lag");
	}

	function distribution(doc) {
		var h = doc.latency_histogram;
		section("Latency distribution");
		if (!h || !h.count) {
			note("no latency histogram");
			return;
		}
		var bins = {}, cdfX = [], cdfY = [], seen = 0;
		h.buckets.forEach(function (b) {
			var bb = bucketBounds(b[0], h.sub_bucket_bits);
			var upperMs = (bb.highest + 1) / 1000;
			var mid = (bb.lowest + bb.highest + 1) / 2000;
			var k = Math.floor(Math.log10(Math.max(mid, 0.001)) * 20);
			bins[k] = (bins[k] || 0) + b[1];
			seen += b[1];
			cdfX.push(upperMs);
			cdfY.push(100 * seen / h.count);
		});
		var keys = Object.keys(bins).map(Number).sort(function (a, b) { return a - b; });
		chart("histogram", "Latency histogram (transactions per 1/20 decade, ms on a log axis)",
			keys.map(function (k) { return Math.pow(10, (k + 0.5) / 20); }),
			[{label: "transactions", values: keys.map(function (k) { return bins[k]; })}],
			{xLabel: "ms", yLabel: "transactions", logX: true, bars: true});
		chart("cdf", "Latency CDF (ms on a log axis)", cdfX,
			[{label: "% of transactions <= ms", values: cdfY}],
			{xLabel: "ms", yLabel: "%", logX: true});
	}

	function scripts(doc) {
		section("Scripts");
		var pk = ["p50", "p90", "p99", "p100"];
		root.appendChild(table("scripts",
			["#", "script", "weight", "processed", "failed", "retries", "tps", "avg ms"].concat(pk.map(function (k) { return k + " ms"; })),
			doc.scripts.map(function (s) {
				return [s.number, s.name, s.weight, s.transactions.processed, s.transactions.failed,
					s.transactions.retries, s.tps, s.latency_ms.average].concat(pk.map(function (k) {
						return s.latency_ms.percentiles[k];
					}));
			})));
		doc.scripts.forEach(function (s) {
			if (!s.commands) return;
			root.appendChild(el("h3", {}, ["Commands of script " + s.number + " (" + s.name + ")"]));
			root.appendChild(table("commands",
				["#", "command", "count", "avg ms", "stddev", "p50 ms", "p99 ms", "max ms", "failures", "retries"],
				s.commands.map(function (c) {
					var p = c.latency_ms.percentiles || {};
					return [c.number, c.line, c.latency_ms.count, c.latency_ms.average, c.latency_ms.stddev,
						p.p50, p.p99, c.latency_ms.max, c.failures, c.retries];
				})));
		});
		if (!doc.scripts.some(function (s) { return s.commands; }))
			note("per-command figures need -r");
	}

	try {
		var doc = JSON.parse(document.getElementById("report-data").textContent);
		summary(doc);
		reconnects(doc);
		overTime(doc);
		distribution(doc);
		scripts(doc);
	} catch (e) {
		errors.push(String(e && e.stack || e));
	}
	setStatus();
})();
