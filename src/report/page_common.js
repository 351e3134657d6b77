/*
 * page_common.js — what every page of ours draws with (the run's, the
 * comparison's and the sweep's), written before the page's own script by
 * report_html_put_page.  pgbPage.el makes an element whose texts become
 * text nodes, never markup; pgbPage.warmupMark is the uPlot plugin that
 * shades a --warmup from the chart's left edge to its end (the chart's
 * box holds that end in data-warmup, which the browser tests read).
 */
var pgbPage = (function () {
	"use strict";

	/*
	 * The one way text reaches a page: an element whose attributes are
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

	function warmupMark(endS) {
		return {hooks: {drawClear: [function (u) {
			var ctx = u.ctx, left = u.bbox.left, right = u.bbox.left + u.bbox.width;
			var x1 = Math.min(u.valToPos(endS, "x", true), right);
			if (!(x1 > left)) return;
			ctx.save();
			ctx.fillStyle = "rgba(230, 160, 20, 0.16)";
			ctx.fillRect(left, u.bbox.top, x1 - left, u.bbox.height);
			ctx.fillStyle = "rgba(150, 95, 0, 0.9)";
			ctx.font = "12px sans-serif";
			ctx.fillText("warm-up", left + 4, u.bbox.top + 14);
			ctx.restore();
			u.root.parentNode.setAttribute("data-warmup", String(endS));
		}]}};
	}

	return {el: el, warmupMark: warmupMark};
})();
