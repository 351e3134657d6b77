/*
 * sweep_html.js — draws the --sweep --report-html page from the JSON
 * embedded in it (doc/sweep.md, "The page") with uPlot, loaded before
 * this script.  No network access.  The steps' table, tps against the
 * swept value, and latency percentiles against it (against the offered
 * rate for a sweep of rate), the knee marked on both with a line.  When
 * done, #status lists each chart and its number of points and the knee
 * ("ok tps:6 latency:6 knee:3", knee:none without one), or "error: ...".
 * Values and wait event names are data: text, never markup.
 */
(function () {
	"use strict";
	var el = pgbPage.el;
	var errors = [], drawn = [], kneeText = "none";
	var statusEl = document.getElementById("status");
	var root = document.getElementById("report");
	var colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd"];

	function setStatus() {
		statusEl.textContent = (errors.length ? "error: " + errors.join("; ") + " " : "ok ") +
			drawn.map(function (d) { return d.name + ":" + d.points; }).join(" ") + " knee:" + kneeText;
	}
	window.addEventListener("error", function (ev) { errors.push(String(ev.message)); setStatus(); });

	function fmt(v, digits) {
		if (v === null || v === undefined) return "–";
		return Number(v).toFixed(digits === undefined ? 3 : digits);
	}

	/* A uPlot plugin: a vertical line at x = at, named "knee". */
	function kneeLine(at) {
		return {hooks: {draw: [function (u) {
			var x = u.valToPos(at, "x", true), ctx = u.ctx;
			if (!(x >= u.bbox.left && x <= u.bbox.left + u.bbox.width)) return;
			ctx.save();
			ctx.strokeStyle = "rgba(200, 30, 30, 0.85)";
			ctx.setLineDash([6, 4]);
			ctx.lineWidth = 2;
			ctx.beginPath();
			ctx.moveTo(x, u.bbox.top);
			ctx.lineTo(x, u.bbox.top + u.bbox.height);
			ctx.stroke();
			ctx.fillStyle = "rgba(200, 30, 30, 0.95)";
			ctx.font = "12px sans-serif";
			ctx.fillText("knee", x + 4, u.bbox.top + 14);
			ctx.restore();
			u.root.parentNode.setAttribute("data-knee", String(at));
		}]}};
	}

	function chart(name, title, xLabel, yLabel, x, lines, knee, logX) {
		var box = el("div", {"class": "chart", id: "chart-" + name});
		root.appendChild(el("h3", {}, [title]));
		root.appendChild(box);
		var u = new uPlot({
			width: Math.min(960, root.clientWidth || 960), height: 280,
			scales: {x: {time: false, distr: logX ? 3 : 1}},
			axes: [{label: xLabel}, {label: yLabel}],
			plugins: knee === null ? [] : [kneeLine(knee)],
			series: [{label: xLabel}].concat(lines.map(function (l, i) {
				return {label: l.label, stroke: colors[i % colors.length], width: 1.5, spanGaps: true,
					points: {show: true}};
			}))
		}, [x].concat(lines.map(function (l) { return l.y; })), box);
		drawn.push({name: name, points: u.data[0].length});
	}

	function stepsTable(doc) {
		var t = el("table", {"class": "summary"});
		t.appendChild(el("tr", {}, ["step", doc.parameter, "tps", "p50 ms", "p90 ms", "p99 ms", "failed",
			"client busy %", "top wait event", "outcome"].map(function (h) { return el("th", {}, [h]); })));
		doc.steps.forEach(function (s) {
			var knee = doc.knee.reached && doc.knee.step === s.step;
			t.appendChild(el("tr", knee ? {"class": "knee"} : {}, [
				el("td", {}, [String(s.step)]), el("td", {"class": "text"}, [s.value + (knee ? " (knee)" : "")]),
				el("td", {}, [fmt(s.tps, 1)]), el("td", {}, [fmt(s.latency_ms.p50)]),
				el("td", {}, [fmt(s.latency_ms.p90)]), el("td", {}, [fmt(s.latency_ms.p99)]),
				el("td", {}, [fmt(s.failed, 0)]), el("td", {}, [fmt(s.client_busy_pct, 1)]),
				el("td", {"class": "text"}, [s.top_wait_event === null ? "–" :
					s.top_wait_event + " (" + fmt(s.top_wait_backends, 1) + ")"]),
				el("td", {"class": "text"}, [s.outcome])]));
		});
		root.appendChild(t);
	}

	function draw(doc) {
		root.appendChild(el("h1", {}, ["pgbench sweep of " + doc.parameter]));
		root.appendChild(el("p", {}, [doc.knee.text]));
		stepsTable(doc);
		var steps = doc.steps.filter(function (s) { return s.tps !== null; });
		/* numbers on the x axis; a variable's texts by their step */
		var byRate = doc.parameter === "rate";
		var x = steps.map(function (s) { return doc.numeric ? s.number : s.step; });
		var xLabel = doc.numeric ? doc.parameter : doc.parameter + " (step)";
		var kneeStep = doc.knee.reached ? steps.filter(function (s) { return s.step === doc.knee.step; })[0] : null;
		var knee = kneeStep ? (doc.numeric ? kneeStep.number : kneeStep.step) : null;
		kneeText = kneeStep ? String(doc.knee.step) : "none";
		var logX = doc.numeric && x.length > 2 && x[0] > 0 && x[x.length - 1] / x[0] >= 8;
		chart("tps", "tps against " + doc.parameter, xLabel, "tps", x,
			[{label: "tps", y: steps.map(function (s) { return s.tps; })}].concat(byRate ?
				[{label: "offered", y: steps.map(function (s) { return s.offered_tps; })}] : []), knee, logX);
		chart("latency", "latency percentiles against " + (byRate ? "the offered rate" : doc.parameter),
			byRate ? "offered rate (tps)" : xLabel, "ms", x, ["p50", "p90", "p99"].map(function (k) {
				return {label: k, y: steps.map(function (s) { return s.latency_ms[k]; })};
			}), knee, logX);
	}

	try {
		draw(JSON.parse(document.getElementById("sweep-data").textContent));
	} catch (e) {
		errors.push(String(e && e.message || e));
	}
	setStatus();
})();
