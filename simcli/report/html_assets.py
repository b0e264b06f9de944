"""The style sheet and the one small script inlined into ``report.html``: sortable tables
(click a header; numbers sort as numbers, ``n/a`` last) and nothing else."""

CSS = """
:root{--fg:#1d2430;--muted:#5b6472;--line:#d8dde4;--bg:#fff;--soft:#f4f6f9;--accent:#1f5fa8}
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);
background:var(--bg);margin:0}
main{max-width:1100px;margin:0 auto;padding:20px 24px 60px}
h1{font-size:1.55em;margin:.2em 0 .1em}h2{font-size:1.25em;margin:1.6em 0 .5em;
border-bottom:1px solid var(--line);padding-bottom:.2em}h3{font-size:1.05em;margin:1.3em 0 .4em}
nav{font-size:.9em;margin:.4em 0 1em;color:var(--muted)}nav a{margin-right:.9em}
a{color:var(--accent)}
.meta{color:var(--muted);margin:0 0 .8em}
.totals{display:flex;flex-wrap:wrap;gap:10px;margin:.6em 0 1em;padding:0}
.totals li{list-style:none;background:var(--soft);border:1px solid var(--line);border-radius:6px;
padding:4px 12px}.totals b{font-size:1.15em}
.answer{background:#eef4fb;border-left:4px solid var(--accent);padding:8px 14px;margin:.6em 0}
.answer p{margin:.35em 0}
pre{background:var(--soft);padding:8px 10px;overflow-x:auto;font-size:.9em;margin:.4em 0}
ul.findings li{margin:.25em 0}.aside{color:var(--muted);font-size:.9em}
table{border-collapse:collapse;margin:.5em 0 1em;font-size:.9em;font-variant-numeric:tabular-nums}
caption{caption-side:top;text-align:left;color:var(--muted);font-style:italic;padding:2px 0}
th,td{border-bottom:1px solid var(--line);padding:3px 9px;vertical-align:top;white-space:nowrap}
th{background:var(--soft);text-align:left;cursor:pointer;user-select:none;white-space:nowrap}
th[aria-sort=ascending]::after{content:" \\25B2";font-size:.75em}
th[aria-sort=descending]::after{content:" \\25BC";font-size:.75em}
td.r,th.r{text-align:right}
.scroll{overflow-x:auto}
figure{margin:.6em 0 1.2em}svg.chart{max-width:100%;height:auto;font-family:inherit}
svg .box{fill:none;stroke:#9aa3ad}svg .grid{stroke:#eceff3}svg .fair{stroke:#777;
stroke-dasharray:3 3}svg .tick{font-size:11px;fill:#333}svg .axis{font-size:12px;fill:#333}
svg .ctitle{font-size:13px;font-weight:600}svg .ptitle{font-size:12px;font-weight:600}
svg .pt path{fill:none;stroke-width:1.5}svg .pt:hover circle{r:6}
svg .stairs,svg .curve{fill:none;stroke-width:1.6}svg .cell text{font-size:11px}
svg .empty{fill:#eee}
ol.games{padding-left:1.4em}ol.games li{margin:.15em 0}.more{color:var(--muted)}
details{margin:.5em 0}summary{cursor:pointer;color:var(--accent)}
"""

SORT_JS = """
(function(){
function key(td){
  var t=(td.getAttribute('data-sort')||td.textContent).trim();
  var m=t.match(/^[<~]?\\s*([+-]?\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?)/i);
  return m?{n:parseFloat(m[1]),s:t}:{n:NaN,s:t};
}
function cmp(a,b){
  var an=!isNaN(a.n),bn=!isNaN(b.n);
  if(an&&bn)return a.n-b.n;if(an)return -1;if(bn)return 1;
  return a.s<b.s?-1:a.s>b.s?1:0;
}
document.querySelectorAll('table.sortable').forEach(function(table){
  var ths=table.tHead.rows[0].cells;
  Array.prototype.forEach.call(ths,function(th,col){
    th.title='sort';
    th.addEventListener('click',function(){
      var dir=th.getAttribute('aria-sort')==='ascending'?-1:1;
      Array.prototype.forEach.call(ths,function(h){h.removeAttribute('aria-sort');});
      th.setAttribute('aria-sort',dir>0?'ascending':'descending');
      var body=table.tBodies[0];
      var rows=Array.prototype.slice.call(body.rows);
      var keyed=rows.map(function(r,i){return {r:r,k:key(r.cells[col]),i:i};});
      keyed.sort(function(a,b){
        var na=isNaN(a.k.n)&&a.k.s==='n/a',nb=isNaN(b.k.n)&&b.k.s==='n/a';
        if(na!==nb)return na?1:-1;
        return dir*cmp(a.k,b.k)||a.i-b.i;
      });
      keyed.forEach(function(x){body.appendChild(x.r);});
    });
  });
});
})();
"""
