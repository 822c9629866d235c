'use strict';
// lastcall's operator dashboard. Everything shown comes from the REST API with the signed-in
// user's credentials; untrusted text (job ids, subjects, reasons) is only ever set as textContent.
(function () {
  const API = 'api';
  const REFRESH_MS = 5000;
  const COLORS = {
    COMPLETED: '#3c9a5f', EXPIRED_NOT_STARTED: '#d9822b', CANCELED: '#7a7f8c', SUPERSEDED: '#9b8ec4',
    BUDGET_DENIED: '#b8a13a', EXECUTION_FAILED: '#c23b35', OUTCOME_UNKNOWN: '#5b3d99', QUARANTINED: '#333a45'
  };
  const STEPS = [['accepted_at', 'accepted'], ['published_at', 'published'], ['received_at', 'received'],
    ['permit_at', 'permit'], ['checked_at', 'checked'], ['handed_off_at', 'handed off'], ['finished_at', 'finished']];
  const $ = (id) => document.getElementById(id);
  let me = null;
  let openJob = null;
  let timer = null;

  function credentials() { return sessionStorage.getItem('lastcall.basic'); }

  async function api(path, options = {}) {
    const headers = { 'Accept': 'application/json', 'X-Requested-With': 'lastcall-dashboard',
      'Authorization': 'Basic ' + credentials() };
    if (options.body !== undefined) { headers['Content-Type'] = 'application/json'; }
    const response = await fetch(API + path, { method: options.method || 'GET', headers, body: options.body });
    if (response.status === 401) { signOut('Your session was refused; sign in again.'); throw new Error('401'); }
    const text = await response.text();
    let body = null;
    try { body = text ? JSON.parse(text) : null; } catch (e) { body = { message: text }; }
    return { status: response.status, body };
  }

  function el(tag, text, attributes = {}) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    Object.entries(attributes).forEach(([k, v]) => node.setAttribute(k, v));
    return node;
  }

  function svg(tag, attributes = {}, text) {
    const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
    Object.entries(attributes).forEach(([k, v]) => node.setAttribute(k, v));
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function time(ms) { return ms ? new Date(ms).toLocaleTimeString() : '–'; }
  function money(v) { return v === undefined || v === null ? '–' : Number(v).toFixed(6); }
  function pill(id, ok, title) { const p = $(id); p.className = ok ? 'up' : 'down'; p.title = title || ''; }

  async function signIn(event) {
    event.preventDefault();
    const form = event.target;
    sessionStorage.setItem('lastcall.basic', btoa(unescape(encodeURIComponent(
      form.user.value + ':' + form.password.value))));
    const reply = await fetch(API + '/me', { headers: { 'Accept': 'application/json',
      'X-Requested-With': 'lastcall-dashboard', 'Authorization': 'Basic ' + credentials() } });
    if (reply.status !== 200) {
      sessionStorage.removeItem('lastcall.basic');
      $('login-error').textContent = reply.status === 401 ? 'Unknown user or wrong password.'
        : 'Sign-in failed (HTTP ' + reply.status + ').';
      return;
    }
    form.password.value = '';
    await start(await reply.json());
  }

  function signOut(message) {
    sessionStorage.removeItem('lastcall.basic');
    if (timer) { clearInterval(timer); timer = null; }
    me = null;
    openJob = null;
    $('login').reset();
    $('job').hidden = true;
    $('board').hidden = true;
    $('login').hidden = false;
    $('logout').hidden = true;
    $('who').textContent = '';
    $('login-error').textContent = message || '';
  }

  async function start(who) {
    me = who;
    const operator = me.roles.includes('operator');
    $('who').textContent = me.user + ' (' + me.roles.join(', ') + ')';
    $('login').hidden = true;
    $('board').hidden = false;
    $('logout').hidden = false;
    document.querySelectorAll('.operator').forEach((n) => { n.hidden = !operator; });
    if (!me.roles.includes('viewer') && !operator) {
      $('login-error').textContent = 'The dashboard is for viewers and operators.';
      return;
    }
    await refresh();
    timer = setInterval(() => refresh().catch(() => {}), REFRESH_MS);
  }

  async function refresh() {
    await Promise.all([health(), stats(), chart(), jobs()]);
    if (openJob) { await showJob(openJob); }
    $('updated').textContent = new Date().toLocaleTimeString();
  }

  async function health() {
    const { body } = await api('/health');
    pill('health-database', body.database.status === 'UP', body.database.error || body.database.product);
    pill('health-broker', body.broker.status === 'UP', body.broker.topology_error || '');
    pill('health-clock', body.clock.admitting, body.clock.detail || body.clock.status);
    $('health-clock').className = body.clock.status === 'HEALTHY' ? 'up' : (body.clock.admitting ? 'warn' : 'down');
    $('health-cause').textContent = body.cause || '';
    $('permits').textContent = body.dispatch.permits;
    $('permits-in-use').textContent = body.dispatch.in_use;
    $('waiting').textContent = body.dispatch.waiting;
  }

  async function stats() {
    const { body } = await api('/stats');
    const rows = $('workloads-body');
    rows.replaceChildren();
    let allHold = true;
    const select = document.querySelector('#job-filter select[name=workload]');
    Object.entries(body.workloads).forEach(([name, w]) => {
      allHold = allHold && w.invariant_holds;
      const outcomes = Object.entries(w.outcomes).map(([o, n]) => o + ' ' + n).join(', ') || '–';
      const tr = el('tr', null, { 'data-workload': name });
      [name, w.accepted, w.in_flight, outcomes, money(w.actual_spend), money(w.reserved),
        money(w.estimated_avoided_exposure), w.invariant_holds ? 'holds' : 'VIOLATED']
        .forEach((v) => tr.appendChild(el('td', v)));
      rows.appendChild(tr);
      if (![...select.options].some((o) => o.value === name)) { select.appendChild(el('option', name, { value: name })); }
    });
    const admission = $('admission-body');
    admission.replaceChildren();
    Object.entries(body.workloads).forEach(([name, w]) => {
      const a = w.admission;
      const tr = el('tr', null, { 'data-admission': name });
      [name, a.mode, a.refused, money(a.refused_estimate), money(a.late_spend), a.predicted_late, a.false_refusals,
        a.predicted_late_answered_late].forEach((v) => tr.appendChild(el('td', v)));
      admission.appendChild(tr);
    });
    pill('health-invariant', allHold, allHold ? 'every accepted job accounted for once' : 'see the workloads table');
    const queues = $('queues-body');
    queues.replaceChildren();
    (body.queues || []).forEach((q) => {
      const tr = el('tr');
      [q.queue, q.ready, q.consumers].forEach((v) => tr.appendChild(el('td', v)));
      queues.appendChild(tr);
    });
    const backends = $('backends-body');
    backends.replaceChildren();
    const limit = (n) => (n ? n : 'none');
    const left = (n) => (n === undefined || n === null ? '–' : n);
    (body.backends || []).forEach((b) => {
      const tr = el('tr', null, { 'data-backend': b.backend });
      const paused = b.paused_until && b.paused_until > Date.now() ? new Date(b.paused_until).toLocaleTimeString() : '–';
      const ms = (n) => (n === undefined || n === null ? '–' : n + ' ms');
      [b.backend, limit(b.requests_per_minute), left(b.requests_left), limit(b.tokens_per_minute),
        left(b.tokens_left), paused, b.answers_in_window, ms(b.latency_p50_ms), ms(b.latency_p95_ms),
        b.too_many_requests]
        .forEach((v) => tr.appendChild(el('td', v)));
      backends.appendChild(tr);
    });
    const tenants = $('tenants-body');
    tenants.replaceChildren();
    const percent = (r) => (r === undefined || r === null ? '–' : (100 * r).toFixed(1) + ' %');
    (body.tenants || []).forEach((t) => {
      const tr = el('tr', null, { 'data-tenant': t.tenant });
      [t.tenant, t.ended, t.dispatched, percent(t.share), t.on_time, percent(t.on_time_rate)]
        .forEach((v) => tr.appendChild(el('td', v)));
      tenants.appendChild(tr);
    });
  }

  async function chart() {
    const { body } = await api('/stats/timeline?minutes=60');
    const area = $('timeline-chart');
    area.replaceChildren();
    const perMinute = new Map();
    body.minutes.forEach((m) => {
      const slot = perMinute.get(m.minute) || {};
      slot[m.outcome] = (slot[m.outcome] || 0) + m.jobs;
      perMinute.set(m.minute, slot);
    });
    const totals = [...perMinute.values()].map((s) => Object.values(s).reduce((a, b) => a + b, 0));
    const max = Math.max(1, ...totals);
    const width = 720 / 60;
    const seen = new Set();
    for (let i = 0; i < 60; i++) {
      const minute = body.from + i * 60000;
      let y = 180;
      Object.entries(perMinute.get(minute) || {}).forEach(([outcome, n]) => {
        const h = (n / max) * 170;
        y -= h;
        seen.add(outcome);
        const bar = svg('rect', { x: i * width + 1, y, width: width - 2, height: h,
          fill: COLORS[outcome] || '#888' });
        bar.appendChild(svg('title', {}, time(minute) + ' ' + outcome + ': ' + n));
        area.appendChild(bar);
      });
    }
    area.appendChild(svg('text', { x: 2, y: 196, 'font-size': 11 }, time(body.from)));
    area.appendChild(svg('text', { x: 716, y: 196, 'font-size': 11, 'text-anchor': 'end' }, 'now · max ' + max + '/min'));
    const legend = $('chart-legend');
    legend.replaceChildren();
    [...seen].sort().forEach((o) => {
      const li = el('li', o);
      const swatch = el('i');
      swatch.style.background = COLORS[o] || '#888';
      li.prepend(swatch);
      legend.appendChild(li);
    });
  }

  async function jobs() {
    const form = $('job-filter');
    const query = new URLSearchParams({ limit: '50', order: 'newest' });
    if (form.workload.value) { query.set('workload', form.workload.value); }
    if (form.outcome.value) { query.set('outcome', form.outcome.value); }
    const { status, body } = await api('/jobs?' + query);
    const rows = $('jobs-table');
    rows.replaceChildren();
    if (status !== 200) { rows.appendChild(el('tr')).appendChild(el('td', body.message)); return; }
    body.jobs.forEach((j) => {
      const tr = el('tr', null, { 'data-job-id': j.job_id });
      [j.job_id, j.workload, j.state, j.reason || '', time(j.accepted_at), time(j.expires_at)]
        .forEach((v) => tr.appendChild(el('td', v)));
      tr.addEventListener('click', () => showJob(j.job_id));
      rows.appendChild(tr);
    });
  }

  async function showJob(id) {
    const { status, body } = await api('/jobs/' + encodeURIComponent(id));
    const section = $('job');
    if (status !== 200) { $('job-message').textContent = body.message || 'HTTP ' + status; return; }
    openJob = id;
    section.hidden = false;
    $('job-id').textContent = body.job_id;
    $('job-state').textContent = body.state;
    $('job-reason').textContent = body.reason ? '(' + body.reason + ')' : '';
    $('job-workload').textContent = body.workload;
    $('job-subject').textContent = body.subject;
    $('cancel').hidden = !(me && me.roles.includes('operator')) || body.outcome !== null;
    drawTimeline(body.trace);
    const attempts = $('job-attempts');
    attempts.replaceChildren();
    body.attempts.forEach((a) => {
      const tr = el('tr');
      [a.attempt_id, a.state, a.http_status ?? '–', a.check_to_last_byte_ms ?? '–',
        (a.usage.prompt_tokens ?? '–') + ' / ' + (a.usage.completion_tokens ?? '–'), money(a.cost), money(a.reserved)]
        .forEach((v) => tr.appendChild(el('td', v)));
      attempts.appendChild(tr);
    });
  }

  function drawTimeline(trace) {
    const area = $('job-timeline');
    area.replaceChildren();
    const points = STEPS.filter(([k]) => trace[k]).map(([k, label]) => [trace[k], label]);
    const start = trace.accepted_at;
    const end = Math.max(trace.expires_at, ...points.map(([t]) => t)) + 1;
    const x = (t) => 10 + ((t - start) / (end - start)) * 690;
    area.appendChild(svg('line', { x1: 10, y1: 45, x2: 700, y2: 45, stroke: '#aab' }));
    const rows = [30, 16, 62, 76];          // label rows above and below the line
    const freeFrom = rows.map(() => -Infinity);
    points.forEach(([t, label]) => {
      area.appendChild(svg('circle', { cx: x(t), cy: 45, r: 4, fill: '#1d2430' }));
      const text = label + ' +' + (t - start) + 'ms';
      const width = text.length * 5.5;
      let row = rows.findIndex((_, r) => freeFrom[r] <= x(t));
      if (row < 0) { row = rows.length - 1; }
      freeFrom[row] = x(t) + width + 6;
      area.appendChild(svg('text', { x: x(t), y: rows[row], 'font-size': 10 }, text));
    });
    area.appendChild(svg('line', { x1: x(trace.expires_at), y1: 10, x2: x(trace.expires_at), y2: 85,
      stroke: '#c23b35', 'stroke-dasharray': '4 2' }));
    area.appendChild(svg('text', { x: x(trace.expires_at) - 4, y: 86, 'font-size': 10, 'text-anchor': 'end',
      fill: '#c23b35' }, 'expires_at'));
  }

  async function cancel() {
    const { status, body } = await api('/jobs/' + encodeURIComponent(openJob) + '/cancel', { method: 'POST', body: '{}' });
    $('job-message').textContent = status < 300 ? 'Cancel requested: ' + (body.state || body.outcome || 'ok')
      : (body.reason || status) + ': ' + (body.message || '');
    await showJob(openJob);
  }

  async function reconcile() {
    const { status, body } = await api('/reconcile', { method: 'POST', body: '{}' });
    $('reconcile-result').textContent = status === 200
      ? 'republished ' + body.republished + ', expired ' + body.expired + ', revoked ' + body.revoked
        + ', outcome unknown ' + body.outcome_unknown + ', invariant ' + (body.invariant_holds ? 'holds' : 'VIOLATED')
      : (body.reason || status) + ': ' + (body.message || '');
  }

  $('login').addEventListener('submit', (e) => signIn(e).catch((err) => { $('login-error').textContent = String(err); }));
  $('logout').addEventListener('click', () => signOut());
  $('job-filter').addEventListener('submit', (e) => {
    e.preventDefault();
    const id = e.target.job.value.trim();
    (id ? showJob(id) : jobs()).catch(() => {});
  });
  $('cancel').addEventListener('click', () => cancel().catch(() => {}));
  $('reconcile').addEventListener('click', () => reconcile().catch(() => {}));
  if (credentials()) {
    fetch(API + '/me', { headers: { 'Accept': 'application/json', 'X-Requested-With': 'lastcall-dashboard',
      'Authorization': 'Basic ' + credentials() } })
      .then((r) => (r.status === 200 ? r.json().then(start) : signOut()))
      .catch(() => signOut());
  }
}());
