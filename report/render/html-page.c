/* html-page.c - `dsprof html`'s page (docs/contract.md §5.8, html.h): the
   profile as one self-contained HTML page, CSS, script and SVG inline, nothing
   fetched:

     - a summary of what the profile holds, linking to the views,
     - with op records (docs/vm.md), the opcodes and the opcode pairs and
       sequences of 3 and 4 (page.h's page_seqs), for superinstructions,
     - the dimension report of a query (model.h's tables),
     - an icicle graph of the record tree in SVG: one box per record, or, past
       --records boxes, one per name path (a;b;c) with the records' summed time;
       hovering a box shows its dimensions and times,
     - the call graph (callgraph.h's cg_model, as a table),
     - the hottest source lines: the largest block counts by line, as
       `dsprof annotate` counts them (linecount.h's lc_model), with the source
       text when it is found, each linked to its line in the source view,
     - the coverage summary by source file (coverage.h, as `dsprof summary`
       counts it) and the source view: each file's text with its line and
       branch counts.

   The views are in the order the page shows them (record_views); those that
   would be empty are left out (counter_views: no records).  The page reads
   without its script, which works on the page as written (page_script).  The
   models are page.h's, built before; the views are drawn by html-tables.c,
   html-icicle.c and html-source.c.

   With --diff BASE the page compares (diff.h): the tables of the diff model,
   the icicle graph of the name paths coloured by their change from the
   base's same paths, and the changed lines instead of the hottest.

   Every text taken from a profile or a source file is escaped for HTML.  */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "html.h"

static const char page_style[] =
  "body{font:14px/1.4 sans-serif;margin:1.5em;color:#222;background:#fff}\n"
  "h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc;"
  "margin-top:1.8em}h3{font-size:1.05em;margin:1.2em 0 .4em}\n"
  "table{border-collapse:collapse;font-size:13px}\n"
  "th,td{padding:2px 8px;border-bottom:1px solid #e4e4e4;text-align:right;"
  "vertical-align:top}\n"
  "th{background:#f0f0f4}td.value,th.value,td.src,th.src,td.loc{text-align:left}\n"
  "td.value{font-family:monospace;white-space:pre-wrap;word-break:break-all;"
  "max-width:50em}\n"
  "td.src code{white-space:pre}\n"
  "tbody tr:hover{background:#fff6d8}\n"
  ".val{font-family:monospace}.note{color:#666;font-style:italic}\n"
  ".summary{background:#f6f6f9;padding:.5em}\n"
  "svg.flame{display:block;border:1px solid #ccc;max-width:100%;height:auto}\n"
  "svg.flame rect{stroke:#fff;stroke-width:.5}\n"
  "svg.flame rect.incomplete{stroke:#900;stroke-dasharray:3 2}\n"
  "svg.flame text{font:12px monospace;fill:#000;pointer-events:none}\n"
  "svg.flame g.box:hover rect{stroke:#000;stroke-width:1}\n"

  ".detail{font-family:monospace;white-space:pre-wrap;min-height:3.2em;"
  "background:#f6f6f9;padding:.3em .5em;margin-bottom:.4em}\n"
  "table.callgraph tbody{border-bottom:1px solid #ccc}\n"
  "table.callgraph tr.entry td{font-weight:bold;background:#f6f6f9}\n"
  "table.callgraph tr.caller td.value,table.callgraph tr.callee td.value"
  "{padding-left:2em}\n"
  "section>h2{cursor:pointer}section>h2::before{content:\"\\25BE  \";color:#888}\n"
  "section.folded>h2::before{content:\"\\25B8  \"}section.folded>:not(h2){display:none}\n"
  "#overview p.views a{margin:0 .2em}\n"
  "table.sortable th{cursor:pointer}th[aria-sort=descending]::after{content:\" \\25BC\"}\n"
  "th[aria-sort=ascending]::after{content:\" \\25B2\"}\n"
  ".flamebar{display:flex;gap:.8em;align-items:center;margin:.4em 0}\n"
  ".flamebar input{width:24em;padding:2px 4px}\n"
  ".icicle{position:relative;width:100%;border:1px solid #ccc;overflow:hidden;font:12px/17px monospace}\n"
  ".fb{position:absolute;height:17px;box-sizing:border-box;border-right:1px solid #fff;padding:0 3px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;cursor:pointer}\n"
  ".fb:hover{outline:1px solid #000;z-index:1}.fb.incomplete{outline:1px dashed #900}.fb.above{opacity:.6}\n"
  ".fb.hit{box-shadow:inset 0 0 0 2px #c0c;font-weight:bold}\n"
  ".tip{position:fixed;display:none;z-index:10;max-width:48em;background:#fffff4;border:1px solid #999;padding:4px 6px;font:12px monospace;white-space:pre-wrap;pointer-events:none;box-shadow:2px 2px 6px rgba(0,0,0,.2)}\n"
  "table.coverage td.all{background:#dcf2dc}table.coverage td.part{background:#fff1c2}table.coverage td.none{background:#ffd6cc}\n"
  "table.coverage tfoot td{font-weight:bold;border-top:2px solid #ccc}\n"
  "details.file{margin:.3em 0}details.file>summary{cursor:pointer;padding:2px 0}\n"
  "table.source td{border:0;padding:0 6px}table.source td.src{text-align:left}\n"
  "tr.run td:nth-child(2){background:#dfe9ff}tr.never td,span.never{background:#ffd6cc}\n"
  ".br{display:none}#source.branches .br{display:table-cell;text-align:left}\n"
  "td.br span.none{color:#c00;font-weight:bold}tr:target td{background:#ffef9e}\n";

/* With --diff, besides.  */
static const char diff_style[] =
  ".grew{color:#b00}.shrank{color:#14c}tr.new td.value{font-weight:bold}\n"
  "tr.gone td{color:#888}\n";

/* The page's script, over the page as written (which reads without it):
   headings fold their sections, links open what holds their target, column
   headings sort their tables, the branch counts shown on demand, and the
   icicle graph's boxes drawn again over the full width: a click zooms into
   a box (Escape or Reset back), the search highlights the frames whose name
   matches and says their share of the time, hovering shows a box's tooltip
   and its Total, Self and Count.  */
static const char page_script[] =
  "(function(){'use strict';\n"
  "function all(s,r){return Array.prototype.slice.call((r||document).querySelectorAll(s));}\n"
  "function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=text;return e;}\n"
  "function dur(ns){var u=[['s',1e9],['ms',1e6],['us',1e3]];for(var i=0;i<u.length;i++)if(ns>=u[i][1]){var v=ns/u[i][1];return v.toFixed(v>=100?0:v>=10?1:2)+' '+u[i][0];}return Math.round(ns)+' ns';}\n"
  "/* Sections: a click on a heading folds and unfolds its section; a long call graph starts folded. */\n"
  "all('section > h2').forEach(function(h){h.tabIndex=0;h.title='Click to fold or unfold';\n"
  "h.addEventListener('click',function(){h.parentNode.classList.toggle('folded');});\n"
  "h.addEventListener('keydown',function(e){if(e.key==='Enter')h.parentNode.classList.toggle('folded');});});\n"
  "var cg=document.getElementById('callgraph');\n"
  "if(cg&&cg.querySelectorAll('tr').length>60)cg.classList.add('folded');\n"
  "/* Links into the page open the folded section and closed file that hold their target. */\n"
  "function reveal(id){var t=id&&document.getElementById(id);if(!t)return;\n"
  "for(var n=t;n;n=n.parentNode){if(n.tagName==='DETAILS')n.open=true;if(n.tagName==='SECTION')n.classList.remove('folded');}\n"
  "t.scrollIntoView({block:'center'});}\n"
  "document.addEventListener('click',function(e){var a=e.target.closest&&e.target.closest('a[href^=\"#\"]');\n"
  "if(a){e.preventDefault();history.replaceState(null,'',a.getAttribute('href'));reveal(a.getAttribute('href').slice(1));}});\n"
  "if(location.hash)reveal(decodeURIComponent(location.hash.slice(1)));\n"
  "var br=document.getElementById('branches');\n"
  "if(br)br.addEventListener('change',function(){document.getElementById('source').classList.toggle('branches',br.checked);});\n"
  "/* Tables: a click on a column heading sorts the rows by it, largest first, again smallest first. */\n"
  "var NUM=/^[-+]?(\\d+\\.?\\d*|\\.\\d+)(e[-+]?\\d+)?%?$/i;\n"
  "function key(td){if(!td)return -Infinity;var k=td.getAttribute('data-key');if(k!==null)return +k;\n"
  "var t=td.textContent.trim();return NUM.test(t)?parseFloat(t):t===''?-Infinity:t.toLowerCase();}\n"
  "function cmp(x,y){if(typeof x!==typeof y)return typeof x==='number'?-1:1;return x<y?-1:x>y?1:0;}\n"
  "function sortBy(t,col,th){var down=th.getAttribute('aria-sort')!=='descending';\n"
  "all('th',t.tHead).forEach(function(h){h.removeAttribute('aria-sort');});\n"
  "th.setAttribute('aria-sort',down?'descending':'ascending');\n"
  "var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows);\n"
  "var keys=rows.map(function(r,i){return [key(r.cells[col]),i,r];});\n"
  "keys.sort(function(p,q){var c=cmp(p[0],q[0]);return (down?-c:c)||p[1]-q[1];});\n"
  "keys.forEach(function(p){b.appendChild(p[2]);});}\n"
  "all('table').forEach(function(t){if(!t.tHead||t.tHead.rows.length!==1||t.tBodies.length!==1||\n"
  "t.classList.contains('callgraph')||t.classList.contains('source'))return;\n"
  "t.classList.add('sortable');\n"
  "all('th',t.tHead).forEach(function(th,i){th.title='Sort by this column';\n"
  "th.addEventListener('click',function(){sortBy(t,i,th);});});});\n"
  "/* The icicle graph: the SVG's boxes drawn again over the full width, zoomed by a click, searched. */\n"
  "var svg=document.querySelector('svg.flame');if(!svg)return;\n"
  "var ROW=+svg.getAttribute('data-row'),W=svg.viewBox.baseVal.width,depth=0,root=0;\n"
  "var boxes=all('g.box',svg).map(function(g){var r=g.querySelector('rect');\n"
  "var b={x:+r.getAttribute('x'),w:+r.getAttribute('width'),d:Math.round(+r.getAttribute('y')/ROW),\n"
  "fill:r.getAttribute('fill'),cls:r.getAttribute('class'),name:g.getAttribute('data-name'),\n"
  "tip:g.querySelector('title').textContent,total:+g.getAttribute('data-total'),\n"
  "self:+g.getAttribute('data-self'),count:+g.getAttribute('data-count')};\n"
  "depth=Math.max(depth,b.d+1);if(b.d===0)root+=b.total;return b;});\n"
  "var bar=el('div','flamebar'),find=el('input'),reset=el('button',null,'Reset zoom'),said=el('span','match');\n"
  "find.type='search';find.placeholder='Search frames (regular expression)';find.id='find';reset.id='reset';said.id='match';\n"
  "bar.appendChild(find);bar.appendChild(reset);bar.appendChild(said);\n"
  "var ic=el('div','icicle'),tip=el('div','tip'),detail=document.getElementById('detail');ic.id='icicle';\n"
  "ic.style.height=depth*ROW+'px';svg.parentNode.insertBefore(bar,svg);svg.parentNode.insertBefore(ic,svg);\n"
  "document.body.appendChild(tip);svg.style.display='none';if(detail)detail.style.display='none';\n"
  "var zoom=null,re=null;\n"
  "function draw(){var zx=zoom?zoom.x:0,zw=zoom?zoom.w:W,px=ic.clientWidth||1,f=document.createDocumentFragment();\n"
  "boxes.forEach(function(b){var l=Math.max(b.x,zx),r=Math.min(b.x+b.w,zx+zw);\n"
  "if(r-l<=1e-9&&!(zoom&&b===zoom))return;var wpx=(r-l)/zw*px;if(wpx<0.5)return;\n"
  "var e=el('div','fb '+b.cls+(re&&re.test(b.name)?' hit':'')+(zoom&&b.d<zoom.d?' above':''));\n"
  "e.style.left=(l-zx)/zw*100+'%';e.style.width=(r-l)/zw*100+'%';e.style.top=b.d*ROW+'px';\n"
  "e.style.background=b.fill;if(wpx>=20)e.textContent=b.name;e.box=b;f.appendChild(e);});\n"
  "ic.textContent='';ic.appendChild(f);ic.classList.toggle('zoomed',!!zoom);}\n"
  "function text(b){return b.tip+'\\nTotal: '+dur(b.total)+(root?' ('+(100*b.total/root).toFixed(1)+'% of all)':'')+\n"
  "'\\nSelf: '+dur(b.self)+'\\nCount: '+b.count;}\n"
  "ic.addEventListener('mousemove',function(e){var b=e.target.box;if(!b){tip.style.display='none';return;}\n"
  "tip.textContent=text(b);tip.style.display='block';\n"
  "var x=e.clientX+14,y=e.clientY+14;if(x+tip.offsetWidth>innerWidth)x=Math.max(0,e.clientX-tip.offsetWidth-14);\n"
  "if(y+tip.offsetHeight>innerHeight)y=Math.max(0,e.clientY-tip.offsetHeight-14);tip.style.left=x+'px';tip.style.top=y+'px';});\n"
  "ic.addEventListener('mouseleave',function(){tip.style.display='none';});\n"
  "ic.addEventListener('click',function(e){var b=e.target.box;if(b){zoom=b.d===0&&b.w>=W-1e-6?null:b;draw();}});\n"
  "reset.addEventListener('click',function(){zoom=null;draw();});\n"
  "document.addEventListener('keydown',function(e){if(e.key==='Escape'&&zoom){zoom=null;draw();}});\n"
  "function search(){var s=find.value;re=null;said.textContent='';\n"
  "if(s){try{re=new RegExp(s,'i');}catch(x){re=new RegExp(s.replace(/[\\\\^$.*+?()[\\]{}|]/g,'\\\\$&'),'i');}\n"
  "var iv=boxes.filter(function(b){return b.cls.indexOf('lane')<0&&re.test(b.name);}).map(function(b){return [b.x,b.x+b.w];});\n"
  "iv.sort(function(p,q){return p[0]-q[0];});var sum=0,end=-1;\n"
  "iv.forEach(function(p){if(p[1]>end){sum+=p[1]-Math.max(p[0],end);end=p[1];}});\n"
  "said.textContent=iv.length+' frame'+(iv.length===1?'':'s')+' match, '+(100*sum/W).toFixed(1)+'% of the time'+\n"
  "(root?' ('+dur(root*sum/W)+')':'');}\n"
  "draw();}\n"
  "find.addEventListener('input',search);addEventListener('resize',draw);draw();\n"
  "})();\n";

/* The page: its sides, query and the models its views share.  */

struct page
{
  FILE *out;
  struct pf_set *set, *base;     /* BASE NULL unless --diff */
  const struct query *q;
  long nlines;
  uint64_t max_records;
  const struct page_models *m;
};

/* The views of the page in the order it shows them: the record views when
   there are records, the coverage and source views before the hottest lines
   when there are none (block counts only).  A view whose figures are empty is
   left out (view_shown).  Each needs the models NEEDS (page.h's PM_ bits):
   the page stops at a view whose models could not be built.  */

struct view
{
  const char *id, *title;
  unsigned needs;
};

static const struct view record_views[] = {
  { "flame", "Record tree", PM_TREE }, { "opcodes", "Opcodes", PM_OPS },
  { "pairs", "Opcode pairs", PM_SEQS },
  { "lines", "Hottest source lines", PM_LINES },
  { "tables", "Dimension report", PM_REPORT },
  { "callgraph", "Call graph", PM_CG }, { "coverage", "Coverage", PM_LINES },
  { "source", "Source", PM_LINES }, { NULL, NULL, 0 } };
static const struct view counter_views[] = {
  { "coverage", "Coverage", PM_LINES }, { "source", "Source", PM_LINES },
  { "lines", "Hottest source lines", PM_LINES }, { NULL, NULL, 0 } };
static const struct view diff_views[] = {
  { "flame", "Record tree", PM_TREE },
  { "lines", "Changed source lines", PM_CHANGED },
  { "tables", "Dimension report", PM_REPORT },
  { "callgraph", "Call graph", PM_CG }, { NULL, NULL, 0 } };

static bool
view_shown (const struct page *pg, const struct view *v)
{
  if (!strcmp (v->id, "pairs"))
    return pg->m->seqs.nrows[0];
  return strcmp (v->id, "opcodes") || pg->m->ops.records;
}

/* The summary at the top: what the profile holds (its records, its
   coverage without --diff) and a link to each of VIEWS.  */

static void
html_overview (const struct page *pg, const struct view *views)
{
  FILE *out = pg->out;
  fputs ("<section id=\"overview\">\n<h2>Summary</h2>\n<p>", out);
  if (pg->m->tree.records)
    fprintf (out, "Profile records: <b>%" PRIu64 "</b>%s.", pg->m->tree.records,
             pg->m->ops.records ? ", op records among them" : "");
  else
    fputs ("No profile records: the profile holds block counts only.", out);
  if (!pg->base)
    {
      const struct lc_model *lm = &pg->m->lines;
      size_t ran;
      struct cov_row total = coverage_total (lm, &ran);
      char l[64], fn[64], br[64];
      fprintf (out, "  Block counts of %zu source file%s (%zu ran): lines <b>%s</b>, "
               "functions <b>%s</b>, branches taken <b>%s</b>.", lm->nsources,
               lm->nsources == 1 ? "" : "s", ran,
               cov_text (l, sizeof l, total.lines),
               cov_text (fn, sizeof fn, total.funcs),
               cov_text (br, sizeof br, total.br_taken));
    }
  fputs ("</p>\n<p class=\"views\">", out);
  bool first = true;
  for (const struct view *v = views; v->id; v++)
    if (view_shown (pg, v))
      {
        fprintf (out, "%s<a href=\"#%s\">%s</a>", first ? "" : " | ", v->id,
                 v->title);
        first = false;
      }
  fputs ("</p>\n</section>\n", out);
}

/* The view ID of the page.  */

static void
html_view (const struct page *pg, const char *id)
{
  FILE *out = pg->out;
  const struct page_models *m = pg->m;
  if (!strcmp (id, "flame"))
    html_flame (out, &m->tree, pg->max_records);
  else if (!strcmp (id, "opcodes"))
    html_opcodes (out, &m->ops, pg->q);
  else if (!strcmp (id, "pairs"))
    html_pairs (out, &m->seqs, m->ops.records, pg->q);
  else if (!strcmp (id, "tables") && pg->base)
    html_diff_tables (out, &m->diff, pg->q);
  else if (!strcmp (id, "tables"))
    html_tables (out, &m->report, pg->q);
  else if (!strcmp (id, "callgraph"))
    html_callgraph (out, &m->cg);
  else if (!strcmp (id, "coverage"))
    html_coverage (out, &m->lines);
  else if (!strcmp (id, "source"))
    html_sources (out, &m->lines);
  else if (!strcmp (id, "lines") && !pg->base)
    html_lines (out, &m->lines, pg->nlines);
  else if (!strcmp (id, "lines"))
    html_changed_lines (out, &m->changed, pg->nlines);
}

/* The sections of PG: the summary, then the views, up to the first whose
   models could not be built.  */

static void
html_sections (const struct page *pg)
{
  const struct page_models *m = pg->m;
  bool records = m->tree.records;
  const struct view *views = pg->base ? diff_views
                             : records ? record_views : counter_views;
  unsigned overview = PM_TREE | (pg->base ? 0 : PM_LINES)
                      | (!pg->base && records ? PM_OPS : 0);
  if ((m->built & overview) != overview)
    return;
  html_overview (pg, views);
  for (const struct view *v = views; v->id; v++)
    if (view_shown (pg, v))
      {
        if ((m->built & v->needs) != v->needs)
          return;
        html_view (pg, v->id);
      }
}

/* The profiles of SET as a list, with the class CLS.  */

static void
profile_list (FILE *out, const struct pf_set *set, const char *cls)
{
  fprintf (out, "<ul class=\"%s\">\n", cls);
  for (uint32_t i = 0; i < set->nprocs; i++)
    {
      const struct pf_process *p = &set->procs[i];
      fputs ("<li>", out);
      text_html (out, p->path);
      fputs (": program <code>", out);
      text_html (out, p->header.exe);
      fprintf (out, "</code>, pid %" PRId64 ", %u thread%s, %" PRIu64
               " dropped and %" PRIu64 " repaired events</li>\n", p->header.pid,
               p->nstreams, p->nstreams == 1 ? "" : "s", p->header.dropped_events,
               p->header.repaired_events);
    }
  fputs ("</ul>\n", out);
}

void
html_page (FILE *out, struct pf_set *set, struct pf_set *base,
           const struct query *q, long nlines, uint64_t max_records,
           const struct page_models *m)
{
  fputs ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<title>dsprof: ", out);
  text_html (out, set->nprocs ? set->procs[0].header.exe : "profile");
  fprintf (out, "</title>\n<style>\n%s%s</style>\n</head>\n<body>\n<h1>dsprof: ",
           page_style, base ? diff_style : "");
  text_html (out, set->nprocs ? set->procs[0].header.exe : "profile");
  fputs ("</h1>\n", out);
  if (base)
    {
      fputs ("<p>Compared with the base:</p>\n", out);
      profile_list (out, base, "profiles base");
      fputs ("<p>The new profiles:</p>\n", out);
    }
  profile_list (out, set, "profiles");
  struct page pg = { .out = out, .set = set, .base = base, .q = q,
                     .nlines = nlines, .max_records = max_records, .m = m };
  html_sections (&pg);
  fprintf (out, "<script>\n%s</script>\n</body>\n</html>\n", page_script);
}
