// The ctxpack inspector: calls POST /v1/pack and /v1/verify on this origin (or reads a package JSON)
// and shows the budget, the sources with what compression kept and cut, the dedup merges between
// them, the exact prompt and the verdict of each claim of an answer.
//
// Every piece of text from a package or an answer is put in the page with textContent (through el()),
// never as HTML: a document holding "<script>" shows those characters and nothing runs.
'use strict';

(function () {
  const GAP = ' \u2026 '; // what joins two pieces of a source's text (Passage.GAP)
  const KEY_STORE = 'ctxpack.apiKey';
  const VERDICTS = {
    supported: {symbol: '\u2713', text: 'supported'},
    partial: {symbol: '\u25D0', text: 'partial'},
    unsupported: {symbol: '?', text: 'unsupported'},
    contradicted: {symbol: '\u2717', text: 'contradicted'},
    uncited: {symbol: '\u2205', text: 'uncited'},
  };
  const DEDUP_ACTIONS = ['merge', 'stitch', 'group', 'drop', 'keep', 'prefer'];

  let current = null; // the package shown

  const $ = (id) => document.getElementById(id);

  /** An element with attributes and children; strings become text nodes, never markup. */
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'dataset') Object.assign(e.dataset, v);
      else if (k === 'text') e.textContent = v;
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      e.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
    }
    return e;
  }

  function status(message, isError) {
    const s = $('status');
    s.textContent = message;
    s.classList.toggle('error', !!isError);
    s.setAttribute('role', isError ? 'alert' : 'status');
  }

  const fmt = (n) => Number(n).toLocaleString('en-US');
  const pct = (part, whole) => (whole > 0 ? (100 * part) / whole : 0);

  // ---- talking to the service ----

  function requestHeaders() {
    const h = {'Content-Type': 'application/json', 'Accept': 'application/json'};
    const key = $('api-key').value.trim();
    if (key) h['Authorization'] = 'Bearer ' + key;
    return h;
  }

  function rememberKey() {
    const key = $('api-key').value.trim();
    if ($('remember-key').checked && key) sessionStorage.setItem(KEY_STORE, key);
    else sessionStorage.removeItem(KEY_STORE);
  }

  async function post(path, body) {
    let response;
    try {
      response = await fetch(path, {method: 'POST', headers: requestHeaders(), body: JSON.stringify(body),
        credentials: 'same-origin', cache: 'no-store'});
    } catch (e) {
      throw new Error('could not reach the service (' + e.message + ')');
    }
    const text = await response.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch (e) {
      // not JSON: reported below
    }
    if (!response.ok) {
      const err = json && json.error ? json.error.code + ': ' + json.error.message : text.slice(0, 300);
      throw new Error(path + ' answered ' + response.status + ' (' + err + ')');
    }
    if (json === null || typeof json !== 'object') throw new Error(path + ' did not answer a JSON object');
    return json;
  }

  async function pack(event) {
    event.preventDefault();
    const query = $('query').value.trim();
    if (!query) {
      status('Type a query first.', true);
      return;
    }
    const body = {query};
    const budget = $('budget').value.trim();
    const preset = $('preset').value;
    if (budget) {
      const n = Number(budget);
      if (!Number.isInteger(n) || n < 1) {
        status('The budget must be a whole number of tokens, at least 1; was "' + budget + '".', true);
        return;
      }
      body.budget = n;
    } else if (preset) {
      body.preset = preset;
    }
    const collection = $('collection').value.trim();
    if (collection) body.collection = collection;
    rememberKey();
    status('Packing\u2026');
    $('pack-btn').disabled = true;
    try {
      const started = performance.now();
      const pkg = await post('/v1/pack', body);
      show(pkg);
      status('Packed in ' + Math.round(performance.now() - started) + ' ms: ' + pkg.sources.length + ' source(s), '
        + fmt(pkg.budget.used) + ' of ' + fmt(pkg.budget.limit) + ' tokens.');
    } catch (e) {
      status(e.message, true);
    } finally {
      $('pack-btn').disabled = false;
    }
  }

  async function verify() {
    if (!current) return;
    const answer = $('answer').value;
    if (!answer.trim()) {
      status('Paste an answer to verify first.', true);
      return;
    }
    rememberKey();
    $('verify-btn').disabled = true;
    status('Verifying\u2026');
    try {
      const body = {sources: current.sources.map((s) => ({id: s.id, text: s.text})), answer};
      if (current.query) body.query = current.query;
      const result = await post('/v1/verify', body);
      showClaims(result);
      status('Verified ' + (result.claims || []).length + ' claim(s).');
    } catch (e) {
      status(e.message, true);
    } finally {
      $('verify-btn').disabled = false;
    }
  }

  // ---- loading a package JSON ----

  function parsePackage(text) {
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      // a --batch output: the first line that parses
      const line = text.split('\n').find((l) => l.trim());
      try {
        value = JSON.parse(line || '');
      } catch (e2) {
        throw new Error('not JSON: ' + e.message);
      }
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a JSON object');
    if (value.error) throw new Error('this is an error answer, not a package: ' + JSON.stringify(value.error));
    if (typeof value.prompt !== 'string') throw new Error('the package has no "prompt" string');
    if (!Array.isArray(value.sources)) throw new Error('the package has no "sources" array');
    if (!value.budget || typeof value.budget !== 'object') throw new Error('the package has no "budget" object');
    value.sources.forEach((s, i) => {
      if (!s || typeof s.id !== 'string' || typeof s.text !== 'string') {
        throw new Error('source ' + (i + 1) + ' has no "id" or "text" string');
      }
    });
    return value;
  }

  function loadText(text, from) {
    try {
      const pkg = parsePackage(text);
      show(pkg);
      if (pkg.query) $('query').value = pkg.query;
      status('Showing the package from ' + from + ': ' + pkg.sources.length + ' source(s).');
    } catch (e) {
      status('Cannot show the package from ' + from + ': ' + e.message, true);
    }
  }

  function loadFile() {
    const file = $('package-file').files[0];
    if (!file) return;
    file.text().then((t) => loadText(t, file.name), (e) => status('Cannot read ' + file.name + ': ' + e.message, true));
  }

  // ---- rendering ----

  function show(pkg) {
    current = pkg;
    const where = locate(pkg);
    showBudget(pkg.budget);
    showLinks(pkg, where);
    showSources(pkg, where);
    $('prompt').textContent = pkg.prompt;
    $('prompt-size').textContent = fmt(pkg.prompt.length) + ' characters, ' + fmt(pkg.prompt.split('\n').length)
      + ' lines, ' + fmt(pkg.budget.used) + ' tokens';
    showTrace(pkg.trace || []);
    $('claims').replaceChildren();
    $('verify-summary').replaceChildren();
    $('results').hidden = false;
  }

  /** Which source holds each chunk id and passage id. */
  function locate(pkg) {
    const byId = new Map();
    for (const s of pkg.sources) {
      if (s.passage) byId.set(s.passage, s.id);
      for (const sp of s.spans || []) if (sp.chunkId) byId.set(sp.chunkId, s.id);
    }
    return byId;
  }

  function showBudget(b) {
    const by = b.byComponent || {};
    const limit = b.limit || 0;
    $('budget-summary').replaceChildren(
      el('strong', {}, fmt(b.used) + ' of ' + fmt(limit) + ' tokens used'),
      ', ' + fmt(b.left !== undefined ? b.left : limit - b.used) + ' left'
        + (b.reserve ? ', ' + fmt(b.reserve) + ' reserved for generation' : '') + '.');
    const rows = [];
    const stack = el('div', {class: 'stack', role: 'img',
      'aria-label': Object.entries(by).map(([k, v]) => k + ' ' + v).join(', ') + ' of ' + limit + ' tokens'});
    Object.entries(by).forEach(([name, tokens], i) => {
      const seg = el('div', {class: 'fill c' + (i % 6), title: name + ': ' + tokens + ' tokens'});
      seg.style.width = pct(tokens, limit) + '%';
      stack.append(seg);
      const fill = el('div', {class: 'fill c' + (i % 6)});
      fill.style.width = pct(tokens, limit) + '%';
      rows.push(el('div', {class: 'bar', dataset: {component: name, tokens: String(tokens)}},
        el('span', {class: 'name'}, name),
        el('div', {class: 'track', role: 'presentation'}, fill),
        el('span', {class: 'value'}, fmt(tokens) + ' tokens \u00b7 ' + pct(tokens, limit).toFixed(1) + ' %')));
    });
    const unused = b.left !== undefined ? b.left : limit - b.used;
    const free = el('div', {class: 'fill free'});
    free.style.width = pct(unused, limit) + '%';
    const left = el('div', {class: 'bar left', dataset: {component: 'left', tokens: String(unused)}},
      el('span', {class: 'name'}, 'left'),
      el('div', {class: 'track', role: 'presentation'}, free),
      el('span', {class: 'value'}, fmt(unused) + ' tokens unused'));
    $('budget-bars').replaceChildren(stack, ...rows, left);
  }

  /** The dedup decisions; each row is linked to the sources holding its ids. */
  function showLinks(pkg, where) {
    const list = $('links');
    list.replaceChildren();
    (pkg.trace || []).forEach((d, index) => {
      if (d.stage !== 'dedup' || !DEDUP_ACTIONS.includes(d.action)) return;
      const ids = (d.ids || []).concat(d.into ? [d.into] : []);
      const labels = [...new Set(ids.map((id) => where.get(id)).filter(Boolean))];
      const chips = labels.length
        ? labels.map((l) => el('a', {class: 'chip', href: '#src-' + l, dataset: {link: String(index)}}, l))
        : [el('span', {class: 'muted'}, 'no source in the package')];
      const from = (d.ids || []).filter((id) => id !== d.into);
      const li = el('li', {id: 'dec-' + index, class: 'decision', tabindex: '0',
        dataset: {action: d.action, link: String(index), rule: d.rule}},
        el('span', {class: 'step'}, 'trace #' + (index + 1) + ' '),
        el('span', {class: 'badge action-' + d.action}, d.action),
        ' ', el('code', {}, d.rule),
        d.similarity !== undefined ? el('span', {class: 'sim'}, ' similarity ' + Number(d.similarity).toFixed(2)) : null,
        el('div', {class: 'ids'}, from.join(', ') || '(none)',
          d.into ? (d.action === 'keep' ? ' \u2194 ' : ' \u2192 ') + d.into : ''),
        el('div', {class: 'in'}, 'in ', ...chips),
        d.reason ? el('div', {class: 'reason'}, d.reason) : null);
      list.append(li);
    });
    if (!list.children.length) list.append(el('li', {class: 'muted'}, 'No merge, stitch or group: every passage was distinct.'));
  }

  /** The decision rows (by trace index) that name a chunk id. */
  function decisionsOf(pkg, chunkId) {
    const out = [];
    (pkg.trace || []).forEach((d, index) => {
      if (d.stage !== 'dedup' || !DEDUP_ACTIONS.includes(d.action)) return;
      if ((d.ids || []).includes(chunkId) || d.into === chunkId) out.push([index, d]);
    });
    return out;
  }

  function showSources(pkg, where) {
    const box = $('sources');
    box.replaceChildren();
    for (const s of pkg.sources) {
      const meta = [s.docId && 'document ' + s.docId, s.section && 'section ' + s.section, s.page ? 'page ' + s.page : '',
        s.date && 'dated ' + s.date].filter(Boolean).join(' \u00b7 ');
      const card = el('article', {id: 'src-' + s.id, class: 'source', dataset: {label: s.id}},
        el('header', {},
          el('span', {class: 'label'}, s.id), ' ',
          el('span', {class: 'title'}, s.title || '(untitled)'),
          el('div', {class: 'meta'}, meta, s.uri ? el('span', {class: 'uri'}, ' \u00b7 ' + s.uri) : null)),
        body(s),
        spansOf(pkg, s));
      box.append(card);
    }
  }

  /** The source's text as kept pieces and dropped sentences, in document order. */
  function body(s) {
    const pieces = s.pieces || [];
    const dropped = s.dropped || [];
    const p = el('div', {class: 'text'});
    if (!pieces.length) {
      p.append(el('span', {class: 'seg kept', dataset: {state: 'kept'}}, el('span', {class: 'tag'}, 'kept'), s.text));
      p.append(el('p', {class: 'muted'}, 'This package has no per-sentence detail (no "pieces"): the text is shown whole.'));
      return p;
    }
    // Each piece's text is its length of the source text; pieces are joined by GAP.
    const items = [];
    let at = 0;
    pieces.forEach((pc) => {
      const len = pc.end - pc.start;
      items.push({docId: pc.docId, start: pc.start, end: pc.end, text: s.text.substr(at, len), kept: true});
      at += len + GAP.length;
    });
    dropped.forEach((d) => items.push({docId: d.docId, start: d.start, end: d.end, text: d.text, kept: false,
      reason: d.reason, score: d.score}));
    const docOrder = [];
    for (const it of items) if (!docOrder.includes(it.docId)) docOrder.push(it.docId);
    items.sort((a, b) => docOrder.indexOf(a.docId) - docOrder.indexOf(b.docId) || a.start - b.start || a.end - b.end);
    let doc = null;
    let line = null;
    let last = -1;
    for (const it of items) {
      if (it.docId !== doc) {
        doc = it.docId;
        line = el('p', {class: 'run', dataset: {doc}});
        if (docOrder.length > 1) line.append(el('span', {class: 'from'}, 'from ' + doc + ': '));
        p.append(line);
        last = -1;
      } else {
        line.append(document.createTextNode(last >= 0 && it.start > last + 2 ? GAP : ' '));
      }
      if (it.kept) {
        line.append(el('mark', {class: 'seg kept', dataset: {state: 'kept', start: it.start, end: it.end},
          title: 'kept: ' + it.docId + ' [' + it.start + ', ' + it.end + ')'},
          el('span', {class: 'tag'}, 'kept'), it.text));
      } else {
        line.append(el('span', {class: 'seg dropped', dataset: {state: 'dropped', reason: it.reason, start: it.start, end: it.end},
          title: 'dropped by compression: ' + it.reason + ' (score ' + it.score + ')'},
          el('span', {class: 'tag'}, 'dropped \u00b7 ' + it.reason), it.text));
      }
      last = it.end;
    }
    return p;
  }

  const VERBS = {merge: ['merged into', 'took in'], stitch: ['stitched to', 'took in'], group: ['grouped with', 'grouped with'],
    drop: ['dropped as a copy of', 'took in'], prefer: ['gave way to', 'preferred to'], keep: ['kept apart from', 'kept apart from']};

  /** How chunk {@code id} stands in decision d: "merged into c12 (S1) · near:jaccard>=0.85". */
  function relation(d, id, where) {
    const verbs = VERBS[d.action] || [d.action, d.action];
    const others = id === d.into ? (d.ids || []).filter((x) => x !== id) : [d.into];
    const named = others.map((o) => o + (where.get(o) && where.get(o) !== where.get(id) ? ' (' + where.get(o) + ')' : ''));
    return (id === d.into ? verbs[1] : verbs[0]) + ' ' + named.join(', ') + ' \u00b7 ' + d.rule;
  }

  /** What the source cites, each copy linked to the dedup decision that brought it in. */
  function spansOf(pkg, s) {
    const where = locate(pkg);
    const spans = s.spans || [];
    const list = el('ul', {class: 'spans'});
    spans.forEach((sp) => {
      const li = el('li', {class: 'span', dataset: {chunk: sp.chunkId || ''}},
        sp.docId + ' [' + sp.start + ', ' + sp.end + ')', sp.chunkId ? el('code', {}, ' ' + sp.chunkId) : null);
      const seen = new Set();
      for (const [index, d] of sp.chunkId ? decisionsOf(pkg, sp.chunkId) : []) {
        const text = relation(d, sp.chunkId, where);
        if (seen.has(text)) continue; // the same decision by both dedup passes: one link
        seen.add(text);
        li.append(' ', el('a', {class: 'link', href: '#dec-' + index, dataset: {link: String(index)}}, text));
      }
      list.append(li);
    });
    const dropped = (s.dropped || []).length;
    return el('div', {class: 'cites'},
      el('span', {class: 'muted'}, 'Cites ' + spans.length + ' span(s)' + (dropped ? '; compression cut ' + dropped + ' sentence(s)' : '') + ':'),
      list);
  }

  function showTrace(trace) {
    const body = $('trace').tBodies[0];
    body.replaceChildren(...trace.map((d, i) => el('tr', {dataset: {stage: d.stage, action: d.action}},
      el('td', {}, String(i + 1)), el('td', {}, d.stage), el('td', {}, d.action), el('td', {}, el('code', {}, d.rule || '')),
      el('td', {}, (d.ids || []).join(', ')), el('td', {}, d.into || ''), el('td', {class: 'num'}, String(d.tokensSaved || 0)),
      el('td', {}, d.reason || ''))));
  }

  function showClaims(result) {
    const claims = result.claims || [];
    const summary = $('verify-summary');
    const passed = result.passed;
    summary.replaceChildren(
      el('span', {class: 'badge ' + (passed ? 'v-supported' : 'v-contradicted')}, passed ? '\u2713 passed' : '\u2717 not passed'),
      ' citation precision ' + Number(result.citationPrecision).toFixed(2) + ', recall '
        + Number(result.citationRecall).toFixed(2)
        + ((result.invalidCitations || []).length ? '; invalid citations: ' + result.invalidCitations.join(', ') : '')
        + (result.abstained ? '; the answer abstains' : ''),
      result.feedback ? el('pre', {class: 'feedback'}, result.feedback) : null);
    $('claims').replaceChildren(...claims.map((c) => {
      const v = VERDICTS[c.verdict] || {symbol: '\u2022', text: c.verdict};
      const ev = c.evidence;
      return el('li', {class: 'claim v-' + c.verdict, dataset: {verdict: c.verdict}},
        el('span', {class: 'badge v-' + c.verdict}, v.symbol + ' ' + v.text), ' ',
        el('span', {class: 'claim-text'}, c.text),
        el('div', {class: 'cites'}, (c.citations || []).length ? 'cites ' : 'no citation',
          ...(c.citations || []).map((l) => el('a', {class: 'chip', href: '#src-' + l}, l))),
        c.reason ? el('div', {class: 'reason'}, c.reason) : null,
        ev && ev.source ? el('div', {class: 'evidence'},
          'evidence in ', el('a', {class: 'chip', href: '#src-' + ev.source}, ev.source),
          ' [' + ev.start + ', ' + ev.end + ') score ' + Number(ev.score).toFixed(2) + ': ',
          el('q', {}, ev.text || sourceText(ev.source).slice(ev.start, ev.end))) : null,
        (c.missing || []).length ? el('div', {class: 'missing'}, 'not in the cited sources: ' + c.missing.join(', ')) : null);
    }));
  }

  function sourceText(label) {
    const s = current && current.sources.find((x) => x.id === label);
    return s ? s.text : '';
  }

  // ---- linking: a decision, its sources and their spans mark each other ----

  function targets(index) {
    return document.querySelectorAll('[data-link="' + index + '"]');
  }

  function linked(index) {
    const out = new Set(targets(index));
    const d = current && current.trace ? current.trace[Number(index)] : null;
    if (d) {
      const where = locate(current);
      const ids = (d.ids || []).concat(d.into ? [d.into] : []);
      for (const id of ids) {
        const label = where.get(id);
        if (label) out.add($('src-' + label));
        document.querySelectorAll('.span[data-chunk="' + CSS.escape(id) + '"]').forEach((e) => out.add(e));
      }
    }
    return out;
  }

  function mark(index, cls, on) {
    linked(index).forEach((e) => e.classList.toggle(cls, on));
  }

  function linkOf(target) {
    const e = target.closest && target.closest('[data-link]');
    return e ? e.dataset.link : null;
  }

  function wireLinks() {
    const root = $('results');
    root.addEventListener('mouseover', (e) => {
      const i = linkOf(e.target);
      if (i !== null) mark(i, 'linked', true);
    });
    root.addEventListener('mouseout', (e) => {
      const i = linkOf(e.target);
      if (i !== null) mark(i, 'linked', false);
    });
    root.addEventListener('focusin', (e) => {
      const i = linkOf(e.target);
      if (i !== null) mark(i, 'linked', true);
    });
    root.addEventListener('focusout', (e) => {
      const i = linkOf(e.target);
      if (i !== null) mark(i, 'linked', false);
    });
    const pin = (e) => {
      const i = linkOf(e.target);
      if (i === null) return;
      const pinned = document.querySelectorAll('.pinned');
      const was = [...pinned].some((x) => x.dataset.link === i);
      pinned.forEach((x) => x.classList.remove('pinned'));
      if (!was) mark(i, 'pinned', true);
    };
    root.addEventListener('click', pin);
    // A decision row is focusable: Enter or Space pins it as a click does.
    root.addEventListener('keydown', (e) => {
      if ((e.key === 'Enter' || e.key === ' ') && e.target.classList && e.target.classList.contains('decision')) {
        e.preventDefault();
        pin(e);
      }
    });
  }

  document.addEventListener('DOMContentLoaded', () => {
    const stored = sessionStorage.getItem(KEY_STORE);
    if (stored) {
      $('api-key').value = stored;
      $('remember-key').checked = true;
    }
    $('remember-key').addEventListener('change', rememberKey);
    $('budget').addEventListener('input', () => {
      if ($('budget').value) $('preset').value = '';
    });
    $('preset').addEventListener('change', () => {
      if ($('preset').value) $('budget').value = '';
    });
    $('pack-form').addEventListener('submit', pack);
    $('verify-btn').addEventListener('click', verify);
    $('load-btn').addEventListener('click', () => loadText($('package-json').value, 'the pasted JSON'));
    $('package-file').addEventListener('change', loadFile);
    wireLinks();
  });
})();
