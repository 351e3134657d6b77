/*
 * report_html.js — draws the --report-html page from the JSON document
 * embedded in it (doc/report-json.md) with uPlot, loaded before this
 * script.  No network access.  When done, #status lists each chart and
 * its number of points ("ok tps:8 latency:8 ..."), or "error: ..." (the
 * browser test reads it; doc/report-html.md).  Names that come from the
 * server (wait events, the monitor's notes, application_name) are data
 * like any other: text, never markup.
 */
(function () {
	"use strict";
	var el = pgbPage.el, warmupMark = pgbPage.warmupMark;
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

	/* a member of an object parsed from the document, never an inherited one ("constructor") */
	function own(o, k) {
		return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
	}
	/* the members of objects of numbers, added: a map with no prototype, so any name is a name */
	function addCounts(objs) {
		var m = Object.create(null);
		objs.forEach(function (o) {
			Object.keys(o).forEach(function (k) { m[k] = (m[k] || 0) + (o[k] || 0); });
		});
		return m;
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

	/* the wait event of a session waiting for its client (PostgreSQL 13 to 18) */
	var CLIENT_READ = "Client:ClientRead";

	var colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
		"#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

	/*
	 * One uPlot chart: x values, series [{label, values}], axis labels.
	 * opts.partialLast: the last point covers a partial interval; each
	 * series then ends one point early and a dashed twin draws its last
	 * segment, labelled "(last interval partial)".  opts.stacked: each
	 * series is drawn on those before it (the first at the bottom): uPlot
	 * does not stack, so a series is drawn at the sum of it and those
	 * below, filled down to the one below (a band), its legend showing
	 * its own value.  opts.plugins: uPlot plugins (checkpointMarks).
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
		var data = series.map(function (s) { return s.values; });
		var y = {distr: opts.logY ? 3 : 1}, bands = [];
		if (opts.stacked) {
			var sums = x.map(function () { return 0; });
			data = series.map(function (s) {
				return s.values.map(function (v, i) { return v === null ? null : (sums[i] += v); });
			});
			bands = series.slice(1).map(function (s, k) { return {series: [k + 2, k + 1]}; });
			y = {range: function (self, min, max) { return [0, max > 0 ? max * 1.05 : 1]; }};
		}
		var u = new uPlot({
			width: Math.min(960, (root.clientWidth || 960)),
			height: 260,
			scales: {x: {time: false, distr: opts.logX ? 3 : 1}, y: y},
			axes: [{label: opts.xLabel || "seconds since start"}, {label: opts.yLabel || ""}],
			bands: bands,
			plugins: opts.plugins || [],
			series: [{label: opts.xLabel || "t"}].concat(series.map(function (s, i) {
				var c = colors[(s.color !== undefined ? s.color : i) % colors.length];
				var d = {label: s.label, stroke: c, width: 1.5,
						 spanGaps: false, points: {show: x.length < 60}};
				if (s.dash) d.dash = s.dash;
				if (opts.stacked) {
					d.fill = c + "99";
					d.value = function (self, v, si, di) { return di === null ? "--" : fmt(s.values[di], 2); };
				}
				if (opts.bars && uPlot.paths && uPlot.paths.bars) {
					d.paths = uPlot.paths.bars({size: [0.9, 40]});
					d.fill = c + "88";
				}
				return d;
			}))
		}, [x].concat(data), box);
		drawn.push({name: name, points: u.data[0].length});
		return u;
	}

	/*
	 * A uPlot plugin that shades the run's checkpoints ([{start_s,
	 * ended_by_s}], server_stats.checkpoints) behind the series: from
	 * the start to the end of the interval it was seen to end in, or a
	 * line there when its start is unknown.  The chart's box says how
	 * many it drew in data-marks (the browser test reads it).
	 */
	function checkpointMarks(checkpoints) {
		return {hooks: {drawClear: [function (u) {
			var ctx = u.ctx, left = u.bbox.left, right = u.bbox.left + u.bbox.width, n = 0;
			ctx.save();
			ctx.fillStyle = "rgba(120, 120, 120, 0.18)";
			ctx.strokeStyle = "rgba(90, 90, 90, 0.75)";
			ctx.lineWidth = 2;
			checkpoints.forEach(function (c) {
				var x1 = u.valToPos(c.ended_by_s, "x", true);
				var x0 = c.start_s === null ? x1 : u.valToPos(c.start_s, "x", true);
				if (!(x1 >= left) || !(x0 <= right)) return;
				x0 = Math.max(x0, left);
				x1 = Math.min(x1, right);
				if (x1 - x0 >= 2)
					ctx.fillRect(x0, u.bbox.top, x1 - x0, u.bbox.height);
				else {
					ctx.beginPath();
					ctx.moveTo(x1, u.bbox.top);
					ctx.lineTo(x1, u.bbox.top + u.bbox.height);
					ctx.stroke();
				}
				n++;
			});
			ctx.restore();
			u.root.parentNode.setAttribute("data-marks", String(n));
		}]}};
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
		if (doc.thresholds && doc.thresholds.length) {
			section("Thresholds");
			root.appendChild(table("thresholds", ["threshold", "verdict", "value"],
				doc.thresholds.map(function (t) {
					return [t.expression, t.passed ? "passed" : "FAILED", t.value === null ? "not measured" : fmt(t.value)];
				})));
		}
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
		mergeSides(m, a, b);
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
		return m;
	}

	/*
	 * What the charts draw of two consecutive points' client, server and
	 * host, as one point's: CPU seconds and wait event samples added
	 * (a CPU figure only when both points have it: it is per second of
	 * both intervals; wait events are per sample, so one point's will do).
	 */
	function mergeSides(m, a, b) {
		if (a.client && b.client)
			m.client = {cpu_user_s: a.client.cpu_user_s + b.client.cpu_user_s,
				cpu_system_s: a.client.cpu_system_s + b.client.cpu_system_s,
				busiest_thread_cpu_pct: Math.max(a.client.busiest_thread_cpu_pct, b.client.busiest_thread_cpu_pct)};
		if (a.host && b.host && a.host.cpu_s && b.host.cpu_s)
			m.host = {cpus: b.host.cpus, cpu_s: addCounts([a.host.cpu_s, b.host.cpu_s])};
		var sa = a.server || {}, sb = b.server || {};
		if (!a.server && !b.server)
			return;
		var wa = sa.wait_events, wb = sb.wait_events;
		m.server = {
			wait_events: wa && wb ? {samples: wa.samples + wb.samples, all_states: wa.all_states && wb.all_states,
				counts: addCounts([wa.counts, wb.counts]), other: wa.other + wb.other} : wa || wb || null,
			processes: sa.processes && sb.processes ? {count: sb.processes.count,
				cpu_user_s: sa.processes.cpu_user_s + sb.processes.cpu_user_s,
				cpu_system_s: sa.processes.cpu_system_s + sb.processes.cpu_system_s} : null
		};
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

	/*
	 * The run as the server saw it (doc/report-json.md, "server_stats"):
	 * the commit check, the counters over the run, the checkpoints, the
	 * wait events and the monitor's notes.
	 */
	function serverStats(doc) {
		var ss = doc.server_stats;
		section("Server statistics");
		if (!ss) {
			note(ss === undefined ? "not in this report (written before the server statistics)" :
				doc.inputs ? "a merged report: each run's server statistics are in its own report" :
				"server statistics were off (--server-stats=off)");
			if (doc.inputs && doc.servers) mergedServers(doc.servers);
			return;
		}
		if (!ss.monitored)
			root.appendChild(el("p", {"class": "note", id: "not-monitored"},
				["the server was not monitored" + (ss.notes.length ? ": the notes below say why" : "")]));
		commitCheck(ss.commits);
		var yes = function (b) { return b ? "yes" : "no"; };
		root.appendChild(table("server-stats", null, [
			["monitored", yes(ss.monitored)],
			["the run's application_name", ss.application_name === null ? "–" : ss.application_name],
			["server on this host", yes(ss.local)],
			["wait event samples", ss.wait_events ? ss.wait_events.samples + " (every " + fmt(ss.sample_interval_ms, 0) + " ms)" : "–"],
			["the monitor's own commits (taken out)", ss.own_commits],
			["counts settled after the run", yes(ss.settled)]
		]));
		root.appendChild(el("h3", {}, ["The server's counters over the run"]));
		if (ss.totals) {
			var dur = doc.duration_s;
			root.appendChild(el("div", {"class": "counter-groups"}, Object.keys(ss.totals).map(function (g) {
				var c = ss.totals[g];
				return table("counters", [g, "over the run", "per second"], Object.keys(c).map(function (k) {
					var ms = /_time$/.test(k);
					return [k + (ms ? " (ms)" : ""), fmt(c[k], ms ? 1 : undefined),
						dur > 0 && typeof c[k] === "number" ? fmt(c[k] / dur, 1) : "–"];
				}));
			})));
		} else
			note("the server's counters over the run could not be read");
		root.appendChild(el("h3", {}, ["Checkpoints"]));
		if (ss.checkpoints && ss.checkpoints.length)
			root.appendChild(table("checkpoints", ["#", "began (s)", "ended by (s)", "took at most (s)"],
				ss.checkpoints.map(function (c, i) {
					return [i + 1, c.start_s === null ? "unknown" : fmt(c.start_s) + (c.start_s < 0 ? " (before the run)" : ""),
						fmt(c.ended_by_s), c.start_s === null ? "–" : fmt(c.ended_by_s - c.start_s)];
				})));
		else
			note("no checkpoint ended during the run");
		if (ss.checkpoints_truncated) note("more than 256 checkpoints: the rest are not listed");
		root.appendChild(el("h3", {}, ["Wait events over the run"]));
		var w = ss.wait_events, seen = w ? Object.keys(w.counts).sort(function (a, b) {
			return w.counts[b] - w.counts[a] || (a < b ? -1 : a > b ? 1 : 0);
		}) : [];
		if (w && w.samples > 0 && (seen.length || w.other)) {
			var all = seen.reduce(function (n, k) { return n + w.counts[k]; }, w.other || 0);
			var rows = seen.map(function (k) { return [k, w.counts[k]]; });
			if (w.other) rows.push(["other", w.other]);
			root.appendChild(table("waits", ["wait event", "seen (backends × samples)", "backends on average", "% of all seen"],
				rows.map(function (r) { return [r[0], r[1], fmt(r[1] / w.samples, 2), fmt(100 * r[1] / all, 1)]; })));
			note(w.all_states === true ? "every state of the run's backends was sampled: CPU is a backend active and" +
				" waiting for nothing, " + CLIENT_READ + " one waiting for its client, idle between statements included" :
				"sessions idle between statements were not sampled (a report written before they were)");
		} else
			note(w && w.samples > 0 ? "no backend of the run was seen in " + w.samples + " samples" : "no wait events sampled");
		if (ss.notes.length) {
			root.appendChild(el("h3", {}, ["Notes of the monitor"]));
			root.appendChild(el("ul", {"class": "notes"}, ss.notes.map(function (n) { return el("li", {}, [n]); })));
		}
	}

	/*
	 * A merged report: each server its runs went to, once (doc/report-json.md,
	 * "servers"), with a few of its counters over the run.
	 */
	function mergedServers(servers) {
		var pick = function (t, g, k) { return t && t[g] && typeof t[g][k] === "number" ? t[g][k] : null; };
		root.appendChild(el("h3", {}, ["Servers of the merged runs"]));
		root.appendChild(table("servers", ["system identifier", "runs", "figures from", "xact_commit",
			"blks_hit", "blks_read", "wal_bytes"], servers.map(function (s) {
			return [s.system_identifier === null ? "unknown" : s.system_identifier, s.instances,
				s.totals_from === null ? "–" : s.totals_from, pick(s.totals, "database", "xact_commit"),
				pick(s.totals, "database", "blks_hit"), pick(s.totals, "database", "blks_read"),
				pick(s.totals, "wal", "wal_bytes")];
		})));
		note("each server's counters are taken once, from the first report that has them: every run's monitor saw the whole server");
	}

	/* The commit check: agreed, did not (a warning), or why it was not made. */
	function commitCheck(c) {
		var text, cls;
		if (!c || !c.checked) {
			cls = "unchecked";
			text = "commits not checked: " + (c && c.not_checked_because ? c.not_checked_because : "unknown reason");
		} else {
			cls = c.agrees ? "agrees" : "disagrees";
			text = (c.agrees ? "commits agree: " : "commits do not agree: ") + "the server counted " + c.server +
				" commits on the database during the run, " + c.expected + " were expected from the transactions processed" +
				" (a difference of " + c.difference + "; " + c.explained + " would be explained)";
		}
		root.appendChild(el("div", {"class": "check " + cls, id: "commit-check"}, [text]));
		if (c && c.checked)
			root.appendChild(table("commits", ["server", "expected", "difference", "explained", "agrees"],
				[[c.server, c.expected, c.difference, c.explained, c.agrees ? "yes" : "no"]]));
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

	/* The run's checkpoints, as the charts over time mark them ([] when none or not monitored). */
	function checkpointsOf(doc) {
		return doc.server_stats && doc.server_stats.checkpoints ? doc.server_stats.checkpoints : [];
	}

	/*
	 * The run's backends' wait events per interval, stacked: each of the
	 * run's most seen events (by their count over the points drawn), its
	 * count over the interval's samples (backends in it on average), the
	 * rest as "other".  No value where an interval was not sampled.
	 * When the samples counted idle sessions too (all_states), most of a
	 * run's backends are idle waiting for their client: Client:ClientRead
	 * is left out of the chart, which would be all of it, and a note
	 * under it says how many backends it held on average.  Returns false,
	 * and draws nothing, when no sample saw a backend in anything else.
	 */
	var TOP_WAITS = 8;
	function waitChart(pts, x, o, allStates) {
		var sampled = pts.filter(function (p) {
			return p.server && p.server.wait_events && p.server.wait_events.samples > 0;
		});
		var total = addCounts(sampled.map(function (p) { return p.server.wait_events.counts; }));
		var names = Object.keys(total).filter(function (k) {
			return !(allStates && k === CLIENT_READ);
		}).sort(function (a, b) {
			return total[b] - total[a] || (a < b ? -1 : a > b ? 1 : 0);
		});
		var top = names.slice(0, TOP_WAITS);
		var perSample = function (f) {
			return pts.map(function (p) {
				var w = p.server && p.server.wait_events;
				return w && w.samples > 0 ? f(w) / w.samples : null;
			});
		};
		var series = top.map(function (k) {
			return {label: k, values: perSample(function (w) { return own(w.counts, k) || 0; })};
		});
		var rest = perSample(function (w) {
			return Object.keys(w.counts).reduce(function (n, k) {
				return top.indexOf(k) < 0 && !(allStates && k === CLIENT_READ) ? n + (w.counts[k] || 0) : n;
			}, w.other || 0);
		});
		if (rest.some(function (v) { return v > 0; }))
			series.push({label: "other", values: rest});
		if (series.length)
			chart("waits", "Wait events of the run's backends (backends in each on average, stacked" +
				(allStates ? "; " + CLIENT_READ + " not drawn" : "") + ")", x, series,
				{yLabel: "backends", stacked: true, plugins: o.plugins});
		var reads = own(total, CLIENT_READ) || 0;
		if (allStates && reads > 0) {
			var samples = sampled.reduce(function (n, p) { return n + p.server.wait_events.samples; }, 0);
			root.appendChild(el("p", {"class": "note", id: "waits-client-read"}, [(series.length ? "not drawn: " : "") +
				CLIENT_READ + ", the sessions waiting for their client (idle between statements included:" +
				" the network and the client's own time), " + fmt(reads / samples, 2) + " backends on average" +
				(series.length ? "" : ", and no backend of the run was seen in anything else")]));
		}
		return series.length > 0 || (allStates && reads > 0);
	}

	/* The host's CPUs busy in a point's interval, in % of one CPU: all but idle and iowait. */
	function hostBusy(p) {
		var c = p.host && p.host.cpu_s;
		if (!c) return null;
		var all = Object.keys(c).reduce(function (n, k) { return n + (c[k] || 0); }, 0);
		return all > 0 ? 100 * p.host.cpus * (all - (c.idle || 0) - (c.iowait || 0)) / all : null;
	}

	/*
	 * CPU per interval, in % of one CPU (CPU seconds per second of the
	 * interval): the client's user and system time and its busiest
	 * worker thread, a local server's processes, and this host's busy
	 * CPUs.  Returns false when no point has any of them.
	 */
	function cpuChart(doc, pts, x, o) {
		var col = function (f) { return pts.map(f); };
		var perSecond = function (f) {
			return col(function (p) { var v = f(p); return v === null || !(p.interval_s > 0) ? null : 100 * v / p.interval_s; });
		};
		var series = [];
		if (pts.some(function (p) { return p.client; }))
			series.push({label: "client user", values: perSecond(function (p) { return p.client ? p.client.cpu_user_s : null; })},
				{label: "client system", values: perSecond(function (p) { return p.client ? p.client.cpu_system_s : null; })},
				{label: "busiest worker thread", values: col(function (p) { return p.client ? p.client.busiest_thread_cpu_pct : null; })});
		if (pts.some(function (p) { return p.server && p.server.processes; }))
			series.push({label: "server processes", values: perSecond(function (p) {
				var s = p.server && p.server.processes;
				return s ? s.cpu_user_s + s.cpu_system_s : null;
			})});
		var withHost = pts.filter(function (p) { return p.host; });
		if (withHost.length)
			series.push({label: "host busy (" + withHost[0].host.cpus + " CPUs)", values: col(hostBusy)});
		if (!series.length)
			return false;
		chart("cpu", "CPU (% of one CPU)", x, series, Object.assign({yLabel: "%"}, o));
		var ss = doc.server_stats;
		if (ss && ss.monitored && !ss.local)
			note("the server is not on this host: its processes' CPU is not measured");
		return true;
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
		var marks = checkpointsOf(doc);
		var warmup = doc.settings.warmup_s || 0;
		var pts = drawnAs.pts, o = {partialLast: drawnAs.last === "partial",
			plugins: (marks.length ? [checkpointMarks(marks)] : []).concat(warmup > 0 ? [warmupMark(warmup)] : [])};
		var x = pts.map(function (p) { return p.t_s; });
		var col = function (f) { return pts.map(f); };
		/* a count per interval, of a shorter or longer one scaled to the interval */
		var perInterval = function (p, k) { return p.interval_s > 0 ? p[k] * iv / p.interval_s : p[k]; };
		lastInterval = drawnAs.last;
		if (series.incomplete) note("memory ran short while recording: the series is incomplete");
		if (drawnAs.text) note(drawnAs.text);
		chart("tps", "Transactions per second (interval " + iv + " s)", x,
			[{label: "tps", values: col(function (p) { return p.tps; })}], Object.assign({yLabel: "tps"}, o));
		if (warmup > 0)
			note("shaded at the start: the warm-up (" + warmup + " s), run but left out of every figure");
		if (marks.length)
			note("shaded in the charts over time: " + (marks.length === 1 ? "the run's checkpoint" : "the run's " + marks.length +
				" checkpoints") + ", from the start to the end of the interval it was seen to end in (a line there when the start is unknown)");
		if (doc.settings.stages) {
			var perRate = /tps/.test(doc.settings.stages);
			chart("stages", "The stages' target (" + (perRate ? "tps" : "clients") + "): --stages=" + doc.settings.stages, x,
				[{label: "target", values: col(function (p) { return p.stage_target === undefined ? null : p.stage_target; })}],
				Object.assign({yLabel: perRate ? "tps" : "clients"}, o));
		}
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
		var ssw = doc.server_stats && doc.server_stats.wait_events;
		if (!waitChart(pts, x, o, !!(ssw && ssw.all_states === true)))
			note(pts.some(function (p) { return p.server && p.server.wait_events; }) ?
				"no backend of the run was seen in a wait event sample" : "no wait events sampled");
		if (!cpuChart(doc, pts, x, o))
			note("no CPU recorded");
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
			serverStats(doc);
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
