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
	var lastInterval = null;	/* how the series' last point was drawn */
	var statusEl = document.getElementById("status");

	function setStatus() {
		var parts = drawn.map(function (d) { return d.name + ":" + d.points; });
		if (lastInterval) parts.push("last:" + lastInterval);
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

	/*
	 * One uPlot chart: x values, series [{label, values}], axis labels.
	 * opts.partialLast: the last point covers a partial interval; each
	 * series then ends one point early and a dashed twin draws its last
	 * segment, labelled "(last interval partial)".
	 */
	function chart(name, title, x, series, opts) {
		opts = opts || {};
		/* the first series' last value, drawn: the browser test reads it */
		var last = series.length && x.length ? series[0].values[x.length - 1] : null;
		if (opts.partialLast && x.length >= 2) {
			var n = x.length;
			series = series.map(function (s, k) {
				return {label: s.label, color: k, values: s.values.map(function (v, i) { return i < n - 1 ? v : null; })};
			}).concat(series.map(function (s, k) {
				return {label: s.label + " (last interval partial)", color: k, dash: [6, 4],
					values: s.values.map(function (v, i) { return i >= n - 2 ? v : null; })};
			}));
		}
		var box = el("div", {"class": "chart", "id": "chart-" + name, "data-last": last === null ? "" : last});
		root.appendChild(el("h3", {}, [title]));
		root.appendChild(box);
		var colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"];
		var u = new uPlot({
			width: Math.min(960, (root.clientWidth || 960)),
			height: 260,
			scales: {x: {time: false, distr: opts.logX ? 3 : 1}, y: {distr: opts.logY ? 3 : 1}},
			axes: [{label: opts.xLabel || "seconds since start"}, {label: opts.yLabel || ""}],
			series: [{label: opts.xLabel || "t"}].concat(series.map(function (s, i) {
				var c = colors[(s.color !== undefined ? s.color : i) % colors.length];
				var d = {label: s.label, stroke: c, width: 1.5,
						 spanGaps: false, points: {show: x.length < 60}};
				if (s.dash) d.dash = s.dash;
				if (opts.bars && uPlot.paths && uPlot.paths.bars) {
					d.paths = uPlot.paths.bars({size: [0.9, 40]});
					d.fill = c + "88";
				}
				return d;
			}))
		}, [x].concat(series.map(function (s) { return s.values; })), box);
		drawn.push({name: name, points: u.data[0].length});
		return u;
	}

	/* Bucket bounds of the log-linear histogram (include/pgbench/stats/histogram.h). */
	function bucketBounds(index, subBits) {
		var sub = Math.pow(2, subBits);
		var shift = index < 2 * sub ? 0 : Math.floor(index / sub) - 1;
		var top = index - shift * sub;
		var width = Math.pow(2, shift);
		return {lowest: top * width, highest: top * width + width - 1};
	}

	/* The banner at the top: how the run ended, as the text report says it. */
	function banner(doc, outcome) {
		var text;
		if (outcome === "completed")
			text = "Run completed in " + fmt(doc.duration_s) + " s";
		else if (outcome === "interrupted" && doc.settings)
			text = "Run interrupted by " + doc.signal + " after " + fmt(doc.duration_s) + " s" +
				(doc.settings.duration_s !== null ? " (of " + doc.settings.duration_s + " s)" : "") +
				": the figures count what ran until then";
		else if (outcome === "interrupted")
			text = "Run interrupted by " + doc.signal + " before the benchmark started";
		else if (outcome === "aborted")
			text = "Run aborted: " + (doc.error || "a client aborted") + " (the figures are incomplete)";
		else
			text = "Run failed to start: " + (doc.error || "unknown error");
		root.appendChild(el("div", {"class": "banner " + outcome, "id": "outcome"}, [text]));
	}

	/* Who ran what, where, when, and how it ended (with the error, if any). */
	function headRows(doc, outcome) {
		var rows = [
			["program", "pgbench " + doc.pgbench_version + " (compat " + doc.compat + ")"],
			["server", doc.server_version || "–"],
			["connection", doc.connection ? [doc.connection.host, doc.connection.port, doc.connection.database].join(" / ") : "–"],
			["command line", (doc.command_line || []).join(" ")],
			["started", doc.start_time || "–"],
			["ended", doc.end_time || "–"],
			["outcome", outcome]
		];
		if (doc.error) rows.push(["error", doc.error]);
		return rows;
	}

	/* What a run that never benchmarked reports: who, where, when, why. */
	function unstarted(doc, outcome) {
		root.appendChild(el("h1", {}, ["pgbench report"]));
		banner(doc, outcome);
		root.appendChild(table("summary", null, headRows(doc, outcome)));
	}

	function summary(doc, outcome) {
		var s = doc.settings, lat = doc.latency_ms, tx = doc.transactions;
		var rows = headRows(doc, outcome).concat([
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
		]);
		Object.keys(lat.percentiles).forEach(function (k) {
			rows.push(["latency " + k, fmt(lat.percentiles[k]) + " ms"]);
		});
		if (doc.lag_ms) rows.push(["lag average / max", fmt(doc.lag_ms.average) + " / " + fmt(doc.lag_ms.max) + " ms"]);
		if (doc.client)
			rows.push(["busiest worker thread", "thread " + doc.client.busiest_thread + ": busy " +
				fmt(doc.client.busiest_thread_busy_pct, 1) + "% of the time"]);
		root.appendChild(el("h1", {}, ["pgbench report"]));
		banner(doc, outcome);
		if (doc.client && doc.client.bound)
			root.appendChild(el("p", {"class": "note", id: "client-bound"}, ["the client may have limited the result: worker thread " +
				doc.client.busiest_thread + " was busy " + fmt(doc.client.busiest_thread_busy_pct, 1) +
				"% of the time, on a CPU or waiting for one (more threads, -j, may help)"]));
		root.appendChild(table("summary", null, rows));
		if (doc.aborted_clients && doc.aborted_clients.length) {
			section("Aborted clients");
			root.appendChild(table("aborts", ["client", "at (s)", "kind", "message"],
				doc.aborted_clients.map(function (a) { return [a.client, fmt(a.at_s), a.kind, a.line]; })));
		}
	}

	/* The value at percentile p of buckets (as include/pgbench/stats/histogram.h answers). */
	function bucketPercentile(h, p, subBits) {
		if (p >= 100) return h.max_us;
		var rank = Math.max(1, Math.ceil(p * h.count / 100)), seen = 0;
		for (var i = 0; i < h.buckets.length; i++) {
			seen += h.buckets[i][1];
			if (seen >= rank) {
				var bb = bucketBounds(h.buckets[i][0], subBits);
				return Math.min(Math.max(bb.lowest + Math.floor((bb.highest - bb.lowest) / 2), h.min_us), h.max_us);
			}
		}
		return h.max_us;
	}

	/* Two consecutive points as one, exactly: counts, rates, latency from their histograms. */
	function mergePoints(a, b, subBits) {
		var m = {t_s: b.t_s, interval_s: a.interval_s + b.interval_s, lag_ms: null};
		["processed", "failures", "retries", "skipped"].forEach(function (k) { m[k] = a[k] + b[k]; });
		m.tps = m.processed / m.interval_s;
		if (!a.processed || !b.processed || !a.histogram || !b.histogram) {
			var only = a.processed ? a : b;
			m.latency_ms = only.latency_ms;
			m.lag_ms = only.lag_ms;
			return m;
		}
		var counts = {}, h = {min_us: Math.min(a.histogram.min_us, b.histogram.min_us),
			max_us: Math.max(a.histogram.max_us, b.histogram.max_us), count: 0, buckets: []};
		[a, b].forEach(function (p) {
			p.histogram.buckets.forEach(function (bk) { counts[bk[0]] = (counts[bk[0]] || 0) + bk[1]; });
		});
		h.buckets = Object.keys(counts).map(Number).sort(function (x, y) { return x - y; })
			.map(function (k) { h.count += counts[k]; return [k, counts[k]]; });
		m.latency_ms = {average: (a.histogram.latency_sum_us + b.histogram.latency_sum_us) / m.processed / 1000,
			max: h.max_us / 1000};
		[50, 90, 99, 99.9].forEach(function (q) { m.latency_ms["p" + q] = bucketPercentile(h, q, subBits) / 1000; });
		if (a.lag_ms && b.lag_ms)
			m.lag_ms = {average: (a.lag_ms.average * a.processed + b.lag_ms.average * b.processed) / m.processed};
		if (a.client && b.client)
			m.client = {cpu_user_s: a.client.cpu_user_s + b.client.cpu_user_s,
				cpu_system_s: a.client.cpu_system_s + b.client.cpu_system_s,
				busiest_thread_cpu_pct: Math.max(a.client.busiest_thread_cpu_pct, b.client.busiest_thread_cpu_pct)};
		return m;
	}

	/*
	 * The points as drawn: a last interval the run ended within is no
	 * cliff.  Shorter than half an interval, it is counted into the point
	 * before it (exactly, from the points' histograms); else it stays, its
	 * counts scaled to a full interval, and its segment is drawn dashed.
	 * Returns {pts, last: "full", "merged" or "partial", text}.
	 */
	function drawnPoints(series, subBits) {
		var pts = series.points.slice(), n = pts.length, end = pts[n - 1];
		/* a tick is read a little late: within 5% an interval is whole */
		if (!(end.interval_s < series.interval_s * 0.95))
			return {pts: pts, last: "full"};
		if (end.interval_s < series.interval_s / 2 && n >= 2 && pts[n - 2].histogram !== undefined) {
			pts.splice(n - 2, 2, mergePoints(pts[n - 2], end, subBits));
			return {pts: pts, last: "merged", text: "the run ended " + fmt(end.interval_s * 1000, 1) + " ms" +
				" into its last interval: that part is counted into the interval before it"};
		}
		return {pts: pts, last: "partial", text: "the run ended " + fmt(end.interval_s * 1000, 1) + " ms" +
			" into its last interval: its segment is dashed, its counts scaled to a full interval"};
	}

	/* the server's identity and settings (doc/report-json.md, "server") */
	function server(doc) {
		var sv = doc.server;
		if (!sv) return;
		section("Server");
		var shown = function (s) { return s ? s.value + (s.unit ? " " + s.unit : "") + " (" + s.source + ")" : "not visible to this role"; };
		root.appendChild(table("server", null, [
			["version", sv.version === null ? String(sv.version_num) : sv.version],
			["system identifier", sv.system_identifier === null ? "not readable by this role" : sv.system_identifier]
		].concat(Object.keys(sv.settings).map(function (k) { return [k, shown(sv.settings[k])]; }))));
		if (sv.non_default.length) {
			root.appendChild(el("h3", {}, ["Settings not at their default"]));
			root.appendChild(table("nondefault", ["name", "value", "source"], sv.non_default.map(function (s) {
				return [s.name, s.value + (s.unit ? " " + s.unit : ""), s.source];
			})));
		}
		if (sv.unreadable.length) note("not readable by this role: " + sv.unreadable.join(", "));
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
		var iv = series.interval_s;
		var drawnAs = drawnPoints(series, series.sub_bucket_bits !== undefined ? series.sub_bucket_bits :
			doc.latency_histogram ? doc.latency_histogram.sub_bucket_bits : 7);
		var pts = drawnAs.pts, o = {partialLast: drawnAs.last === "partial"};
		var x = pts.map(function (p) { return p.t_s; });
		var col = function (f) { return pts.map(f); };
		/* a count per interval, of a shorter or longer one scaled to the interval */
		var perInterval = function (p, k) { return p.interval_s > 0 ? p[k] * iv / p.interval_s : p[k]; };
		lastInterval = drawnAs.last;
		if (series.incomplete) note("memory ran short while recording: the series is incomplete");
		if (drawnAs.text) note(drawnAs.text);
		chart("tps", "Transactions per second (interval " + iv + " s)", x,
			[{label: "tps", values: col(function (p) { return p.tps; })}], Object.assign({yLabel: "tps"}, o));
		chart("latency", "Latency percentiles (ms)", x,
			["p50", "p90", "p99", "p99.9", "max"].map(function (k) {
				return {label: k, values: col(function (p) { return p.latency_ms[k]; })};
			}), Object.assign({yLabel: "ms"}, o));
		chart("failures", "Failures, retries and skipped transactions per interval", x,
			["failures", "retries", "skipped"].map(function (k) {
				return {label: k, values: col(function (p) { return perInterval(p, k); })};
			}), Object.assign({yLabel: "count"}, o));
		if (doc.settings.rate_tps !== null) {
			chart("lag", "Schedule lag under -R (ms)", x,
				[{label: "average", values: col(function (p) { return p.lag_ms ? p.lag_ms.average : null; })}],
				Object.assign({yLabel: "ms"}, o));
		} else
			note("no -R: no schedule lag");
		if (pts.some(function (p) { return p.client; })) {
			/* CPU seconds per second of the interval: 100% is one CPU */
			var share = function (k) {
				return col(function (p) { return p.client && p.interval_s > 0 ? 100 * p.client[k] / p.interval_s : null; });
			};
			chart("client", "Client CPU (% of one CPU)", x,
				[{label: "user", values: share("cpu_user_s")}, {label: "system", values: share("cpu_system_s")},
				 {label: "busiest worker thread", values: col(function (p) { return p.client ? p.client.busiest_thread_cpu_pct : null; })}],
				Object.assign({yLabel: "%"}, o));
		} else
			note("no client CPU recorded");
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
		var outcome = doc.outcome !== undefined ? doc.outcome : (doc.aborted ? "aborted" : "completed");
		if (!doc.settings)
			unstarted(doc, outcome);
		else {
			summary(doc, outcome);
			server(doc);
			reconnects(doc);
			overTime(doc);
			distribution(doc);
			scripts(doc);
		}
	} catch (e) {
		errors.push(String(e && e.stack || e));
	}
	setStatus();
})();
