import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type RawZipEntry, rawZip } from './raw-zip.ts';

/**
 * SCORM 1.2, SCORM 2004 and cmi5 packages built by the tests (issue 35), and hostile or malformed
 * ones. The SCO and AU pages are real: the Playwright tests play them in Chromium through the
 * platform's player, so they find the runtime the standard way, report through it, show what it
 * returns, and (button "Preberi žeton") try to reach the platform's session token, which must fail
 * from the content origin.
 *
 * Each builder returns the zip as a Buffer; the `...Files` builders return the same files as a map,
 * for tests of the manifest reader that skip the zip.
 */

export type ContentFiles = Map<string, Buffer>;

/** What every SCO and AU page shows, so tests can look for it. */
export const SCO_TEXT = {
  location: 'Lokacija: ',
  saved: 'Shranjeno: ',
  status: 'Stanje: ',
  scoreLabel: 'Rezultat',
  defaultScore: 80,
  /** The SCO passes at this raw score or more (and the manifests' mastery score is the same). */
  passingScore: 70,
  /** "Opravi" is also part of "Ne opravi": find it by role with `exact: true`. */
  buttons: { page2: 'Stran 2', pass: 'Opravi', complete: 'Zaključi', fail: 'Ne opravi', close: 'Zapri', readToken: 'Preberi žeton' },
  /** Status texts after each call; a failed call shows "Stanje: napaka ...". */
  states: {
    loading: 'Stanje: nalaganje',
    connected: 'Stanje: povezano',
    noApi: 'Stanje: ni API-ja SCORM',
    noCmi5: 'Stanje: ni parametrov za zagon cmi5',
    page2: 'Stanje: stran 2 shranjena',
    passed: (score: number) => `Stanje: opravljeno (${score})`,
    failed: (score: number) => `Stanje: ni opravljeno (${score})`,
    completed: 'Stanje: zaključeno',
    closed: 'Stanje: zaprto',
  },
  tokenUnchecked: 'Žeton: ni preverjen',
  tokenHidden: 'Žeton: ni dostopen',
  /** Followed by where it was found. */
  tokenVisible: 'Žeton: DOSTOPEN',
} as const;

/**
 * The platform's own URL the "Preberi žeton" probe asks for with the browser's credentials: the
 * current user (GET /api/users/me; the platform has no /api/auth/me). 200 there means the package
 * could act as the user.
 */
export const TOKEN_PROBE_PATH = '/api/users/me';

export const SCORM12 = {
  identifier: 'si.medilearn.test.scorm12',
  title: 'Shranjevanje zdravil (SCORM 1.2)',
  itemId: 'sco-shranjevanje',
  itemTitle: 'Shranjevanje zdravil',
  launch: 'index.html',
  masteryScore: 70,
} as const;

export const SCORM2004 = {
  identifier: 'si.medilearn.test.scorm2004',
  title: (edition: 3 | 4) => `Farmakovigilanca (SCORM 2004, ${edition}. izdaja)`,
  version: (edition: 3 | 4) => (edition === 3 ? '2004 3rd Edition' : '2004 4th Edition'),
  itemId: 'sco-farmakovigilanca',
  itemTitle: 'Poročanje o neželenih učinkih',
  /** The resource's xml:base (sco/) plus its href. */
  launch: 'sco/index.html',
  /** minNormalizedMeasure 0.7. */
  masteryScore: 70,
} as const;

export const CMI5 = {
  courseId: 'https://medilearn.example/cmi5/tecaji/hramba-cepiv',
  /** The course title in Slovenian (cmi5.xml also has it in English, listed first). */
  title: 'Hramba cepiv (cmi5)',
  auId: 'https://medilearn.example/cmi5/au/hramba-cepiv',
  auTitle: 'Shranjevanje cepiv',
  launch: 'au/index.html',
  /** The @xapi/cmi5 browser build, copied into the package beside the AU page. */
  library: 'au/cmi5.umd.js',
  moveOn: 'CompletedAndPassed',
  /** As cmi5.xml states it (0..1); the manifest reader gives 70. */
  masteryScore: 0.7,
} as const;

export const MULTI_SCO = {
  identifier: 'si.medilearn.test.multi',
  title: 'Varna uporaba zdravil (več enot)',
  /** The launchable items in the manifest's order; a folder item and an asset item around them are not launchable. */
  items: [
    { id: 'sco-uvod', title: 'Uvod', launch: 'sco1/index.html', masteryScore: null },
    { id: 'sco-preverjanje', title: 'Preverjanje znanja', launch: 'sco2/index.html?del=2', masteryScore: 80 },
  ],
} as const;

/** The entry or reference each hostile package is refused for; messages name it. */
export const HOSTILE = {
  zipSlip: '../evil.js',
  symlink: 'link',
  absolutePath: '/etc/evil.js',
  bomb: 'big.bin',
  /** 50 MB of zeros, deflated to about 50 kB (ratio about 1000). */
  bombBytes: 50 * 1024 * 1024,
  tooManyEntries: 10_001,
  launchOutside: '../x.html',
  unsupportedVersion: '2004 2nd Edition',
  encrypted: 'secret.js',
  duplicate: 'index.html',
  lyingSize: 'data.bin',
  external: 'https://zunanji.example/au.html',
} as const;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const filesOf = (entries: Record<string, string | Buffer>): ContentFiles =>
  new Map(Object.entries(entries).map(([path, data]) => [path, typeof data === 'string' ? Buffer.from(data, 'utf8') : data]));

/** The files as a zip (deflated), with any extra raw entries after them. */
export const zipOf = (files: ReadonlyMap<string, Buffer>, extra: readonly RawZipEntry[] = []): Buffer =>
  rawZip([...[...files].map(([name, data]) => ({ name, data })), ...extra]);

/*
 * The pages. Scripts are files of their own (not inline), so they also run under a content origin
 * whose CSP allows only 'self' scripts.
 */

/** Finds the platform's origin for the token probe: ?platform=, else the top frame's origin, else the referrer. */
const TOKEN_PROBE_JS = `
  function platformOrigin() {
    var given = new URLSearchParams(window.location.search).get('platform');
    if (given) return given.replace(/\\/+$/, '');
    var ancestors = window.location.ancestorOrigins;
    if (ancestors && ancestors.length) return ancestors[ancestors.length - 1];
    try { return document.referrer ? new URL(document.referrer).origin : null; } catch (e) { return null; }
  }
  function readToken() {
    var found = [];
    var notes = [];
    function fromStorage(label, getWindow) {
      try {
        var storage = getWindow().localStorage;
        var value = storage.getItem('jwt') || storage.getItem('realJwt');
        if (value) found.push(label); else notes.push(label + ': prazno');
      } catch (e) { notes.push(label + ': ' + e.name); }
    }
    fromStorage('localStorage (parent)', function () { return window.parent; });
    fromStorage('localStorage (top)', function () { return window.top; });
    fromStorage('localStorage', function () { return window; });
    try {
      if (/(^|;\\s*)(jwt|medilearn_media)=/.test(document.cookie)) found.push('piškotek'); else notes.push('piškotek: ni');
    } catch (e) { notes.push('piškotek: ' + e.name); }
    // The cookies of the platform's paths: this page moves to /api/files (where the platform's media cookie
    // lives) without loading, reads what it may, and moves back. Only another host keeps them out.
    try {
      var here = location.pathname + location.search;
      history.replaceState(null, '', '/api/files/1');
      var cookies = document.cookie;
      history.replaceState(null, '', here);
      if (/(^|;\\s*)(jwt|medilearn_media)=/.test(cookies)) found.push('piškotek /api/files'); else notes.push('piškotek /api/files: ni');
    } catch (e) { notes.push('piškotek /api/files: ' + e.name); }
    function show() {
      document.getElementById('token').textContent = found.length ? '${SCO_TEXT.tokenVisible} ' + found.join(', ') : '${SCO_TEXT.tokenHidden}';
      document.getElementById('token-details').textContent = notes.join('; ');
    }
    var origin = platformOrigin();
    if (!origin) { notes.push('fetch: izvor platforme ni znan'); show(); return; }
    document.getElementById('token').textContent = 'Žeton: preverjam';
    fetch(origin + '${TOKEN_PROBE_PATH}', { credentials: 'include' }).then(function (response) {
      if (response.status === 200) found.push('fetch ' + origin + '${TOKEN_PROBE_PATH}: 200'); else notes.push('fetch: ' + response.status);
      show();
    }, function (e) { notes.push('fetch: ' + e.name); show(); });
  }
  document.getElementById('read-token').addEventListener('click', readToken);
`;

/** SCORM 1.2 and 2004 differ only in the API's name, its method names and the data model's element names. */
const scormRuntime = (version: '1.2' | '2004') => {
  const v12 = version === '1.2';
  const api = v12 ? 'API' : 'API_1484_11';
  const m = v12
    ? { init: 'LMSInitialize', get: 'LMSGetValue', set: 'LMSSetValue', commit: 'LMSCommit', finish: 'LMSFinish', error: 'LMSGetLastError' }
    : { init: 'Initialize', get: 'GetValue', set: 'SetValue', commit: 'Commit', finish: 'Terminate', error: 'GetLastError' };
  const location = v12 ? 'cmi.core.lesson_location' : 'cmi.location';
  const page2 = v12 ? `set('cmi.core.lesson_status', 'incomplete');` : `set('cmi.completion_status', 'incomplete');`;
  const score = v12 ? 'cmi.core.score' : 'cmi.score';
  const outcome = v12
    ? `set('cmi.core.lesson_status', passed ? 'passed' : 'failed');`
    : `set('cmi.score.scaled', String(raw / 100)); set('cmi.success_status', passed ? 'passed' : 'failed'); set('cmi.completion_status', 'completed');`;
  const response = v12 ? 'cmi.interactions.0.student_response' : 'cmi.interactions.0.learner_response';
  const wrong = v12 ? 'wrong' : 'incorrect';
  const sessionTime = v12 ? `set('cmi.core.session_time', '00:01:00');` : `set('cmi.session_time', 'PT1M');`;
  return `(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  // The standard search (SCORM RTE): this window, then up the parents (at most 10), then the opener's.
  // A frame of another origin throws on access; the search goes on past it.
  function search(win) {
    for (var tries = 0; win && tries <= 10; tries++) {
      try { if (win.${api}) return win.${api}; } catch (e) {}
      if (!win.parent || win.parent === win) return null;
      win = win.parent;
    }
    return null;
  }
  var api = search(window) || (window.opener ? search(window.opener) : null);
  var failures = [];
  function status(text) { $('status').textContent = '${SCO_TEXT.status}' + text; }
  function ok(result) { return String(result) === 'true'; }
  function set(name, value) {
    if (!ok(api.${m.set}(name, value))) failures.push(name + ' (' + api.${m.error}() + ')');
  }
  function finish(call, text) {
    if (!ok(call)) failures.push('${m.commit} (' + api.${m.error}() + ')');
    status(failures.length ? 'napaka ' + failures.join(', ') : text);
    failures = [];
    render();
  }
  // Values may reach the page after the call (scorm-again's cross-frame API answers from a cache it
  // refreshes by postMessage), so the page shows them again a little later.
  function render() {
    if (!api) return;
    var draw = function () {
      $('location').textContent = '${SCO_TEXT.location}' + api.${m.get}('${location}');
      $('saved').textContent = '${SCO_TEXT.saved}' + api.${m.get}('cmi.suspend_data');
    };
    draw();
    setTimeout(draw, 300);
  }
  if (!api) {
    status('ni API-ja SCORM');
  } else {
    status(ok(api.${m.init}('')) ? 'povezano' : 'napaka ${m.init} (' + api.${m.error}() + ')');
    render();
  }
  $('page2').addEventListener('click', function () {
    if (!api) return status('ni API-ja SCORM');
    set('${location}', '2');
    set('cmi.suspend_data', 'stran=2');
    ${page2}
    finish(api.${m.commit}(''), 'stran 2 shranjena');
  });
  $('pass').addEventListener('click', function () {
    if (!api) return status('ni API-ja SCORM');
    var raw = Number($('score').value);
    var passed = raw >= ${SCO_TEXT.passingScore};
    set('${score}.raw', String(raw));
    set('${score}.min', '0');
    set('${score}.max', '100');
    ${outcome}
    set('cmi.interactions.0.id', 'q1');
    set('cmi.interactions.0.type', 'choice');
    set('${response}', 'a');
    set('cmi.interactions.0.result', passed ? 'correct' : '${wrong}');
    finish(api.${m.commit}(''), (passed ? 'opravljeno (' : 'ni opravljeno (') + raw + ')');
  });
  $('close').addEventListener('click', function () {
    if (!api) return status('ni API-ja SCORM');
    ${sessionTime}
    finish(api.${m.finish}(''), 'zaprto');
  });
${TOKEN_PROBE_JS}
})();
`;
};

const CMI5_AU_JS = `(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  function status(text) { $('status').textContent = '${SCO_TEXT.status}' + text; }
  function scaled() { return Number($('score').value) / 100; }
  var cmi = null;
  // One statement at a time; the library throws at once (e.g. below the mastery score, or not in Normal mode) or fails later.
  function send(action, text) {
    if (!cmi) return status('ni parametrov za zagon cmi5');
    var pending;
    try { pending = action(); } catch (e) { return status('napaka ' + e.message); }
    status('pošiljam');
    Promise.resolve(pending).then(function () { status(text); }, function (e) { status('napaka ' + (e && e.message)); });
  }
  if (!window.Cmi5) {
    status('knjižnica cmi5 ni naložena');
  } else if (!Cmi5.isCmiAvailable) {
    status('ni parametrov za zagon cmi5');
  } else {
    cmi = Cmi5.instance;
    status('povezovanje');
    cmi.initialize().then(function () {
      var data = cmi.getLaunchData() || {};
      $('mode').textContent = 'Način: ' + data.launchMode + ', prag: ' + (data.masteryScore === undefined ? 'ni' : data.masteryScore) + ', moveOn: ' + data.moveOn;
      status('povezano');
    }, function (e) { status('napaka ' + (e && e.message)); });
  }
  $('pass').addEventListener('click', function () {
    var score = scaled();
    send(function () { return cmi.pass(score); }, 'opravljeno (' + Math.round(score * 100) + ')');
  });
  $('complete').addEventListener('click', function () { send(function () { return cmi.complete(); }, 'zaključeno'); });
  $('fail').addEventListener('click', function () {
    var score = scaled();
    send(function () { return cmi.fail(score); }, 'ni opravljeno (' + Math.round(score * 100) + ')');
  });
  $('close').addEventListener('click', function () { send(function () { return cmi.terminate(); }, 'zaprto'); });
${TOKEN_PROBE_JS}
})();
`;

const page = (title: string, body: string, scripts: readonly string[]) => `<!doctype html>
<html lang="sl">
<head>
<meta charset="utf-8">
<title>${escapeXml(title)}</title>
</head>
<body>
<main>
<h1>${escapeXml(title)}</h1>
${body}
<p><label for="score">${SCO_TEXT.scoreLabel}</label> <input id="score" aria-label="${SCO_TEXT.scoreLabel}" type="number" min="0" max="100" value="${SCO_TEXT.defaultScore}"></p>
<p id="status" role="status">${SCO_TEXT.states.loading}</p>
<p id="token">${SCO_TEXT.tokenUnchecked}</p>
<p id="token-details"></p>
</main>
${scripts.map((src) => `<script src="${src}"></script>`).join('\n')}
</body>
</html>
`;

const B = SCO_TEXT.buttons;

/** A SCO page (index.html) and its script (sco.js), for a folder prefix such as '' or 'sco1/'. */
export const scoFiles = (folder: string, title: string, version: '1.2' | '2004'): Record<string, string> => ({
  [`${folder}index.html`]: page(
    title,
    `<p id="location">${SCO_TEXT.location}</p>
<p id="saved">${SCO_TEXT.saved}</p>
<p><button type="button" id="page2">${B.page2}</button> <button type="button" id="pass">${B.pass}</button> <button type="button" id="close">${B.close}</button> <button type="button" id="read-token">${B.readToken}</button></p>`,
    ['sco.js'],
  ),
  [`${folder}sco.js`]: scormRuntime(version),
});

const require = createRequire(import.meta.url);
let cmi5Library: { code: Buffer; license: Buffer } | undefined;
/** The @xapi/cmi5 UMD build: one file defining the global `Cmi5`, with axios, @xapi/xapi, uuid and deepmerge bundled in. */
const cmi5Umd = () => {
  if (!cmi5Library) {
    const file = require.resolve('@xapi/cmi5/dist/Cmi5.umd.js');
    cmi5Library = { code: readFileSync(file), license: readFileSync(require.resolve('@xapi/cmi5/LICENSE.md')) };
  }
  return cmi5Library;
};

/** An AU page (index.html), its script (au.js) and the cmi5 library, in a folder such as 'au/'. */
export const auFiles = (folder: string, title: string): Record<string, string | Buffer> => ({
  [`${folder}index.html`]: page(
    title,
    `<p id="mode"></p>
<p><button type="button" id="pass">${B.pass}</button> <button type="button" id="complete">${B.complete}</button> <button type="button" id="fail">${B.fail}</button> <button type="button" id="close">${B.close}</button> <button type="button" id="read-token">${B.readToken}</button></p>`,
    ['cmi5.umd.js', 'au.js'],
  ),
  [`${folder}au.js`]: CMI5_AU_JS,
  [`${folder}cmi5.umd.js`]: cmi5Umd().code,
  [`${folder}cmi5.umd.LICENSE.md`]: cmi5Umd().license,
});

/* SCORM 1.2 */

export type Scorm12Options = {
  readonly title?: string;
  readonly itemTitle?: string;
  /** adlcp:masteryscore; null leaves it out. */
  readonly masteryScore?: number | null;
  /** Added as the item's parameters (?platform=...), for the token probe. */
  readonly platformOrigin?: string;
  /** The schemaversion element's text; null leaves the metadata out (the namespace then says 1.2). */
  readonly schemaVersion?: string | null;
  /** The resource's scormtype (default sco). */
  readonly scormType?: string;
  /** The resource's href (default index.html). */
  readonly href?: string;
};

export const scorm12Manifest = (options: Scorm12Options = {}): string => {
  const masteryScore = options.masteryScore === undefined ? SCORM12.masteryScore : options.masteryScore;
  const schemaVersion = options.schemaVersion === undefined ? '1.2' : options.schemaVersion;
  const parameters = options.platformOrigin ? ` parameters="?platform=${encodeURIComponent(options.platformOrigin)}"` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${SCORM12.identifier}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
${schemaVersion === null ? '' : `  <metadata>\n    <schema>ADL SCORM</schema>\n    <schemaversion>${escapeXml(schemaVersion)}</schemaversion>\n  </metadata>\n`}  <organizations default="ORG-1">
    <organization identifier="ORG-1">
      <title>${escapeXml(options.title ?? SCORM12.title)}</title>
      <item identifier="${SCORM12.itemId}" identifierref="RES-1" isvisible="true"${parameters}>
        <title>${escapeXml(options.itemTitle ?? SCORM12.itemTitle)}</title>
${masteryScore === null ? '' : `        <adlcp:masteryscore>${masteryScore}</adlcp:masteryscore>\n`}      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="RES-1" type="webcontent" adlcp:scormtype="${escapeXml(options.scormType ?? 'sco')}" href="${escapeXml(options.href ?? SCORM12.launch)}">
      <file href="index.html"/>
      <file href="sco.js"/>
    </resource>
  </resources>
</manifest>
`;
};

export const scorm12Files = (options: Scorm12Options = {}): ContentFiles =>
  filesOf({ 'imsmanifest.xml': scorm12Manifest(options), ...scoFiles('', options.itemTitle ?? SCORM12.itemTitle, '1.2') });

export const scorm12Package = (options: Scorm12Options = {}): Buffer => zipOf(scorm12Files(options));

/* SCORM 2004 */

export type Scorm2004Options = {
  readonly edition: 3 | 4;
  readonly platformOrigin?: string;
  /** The schemaversion element's text instead of the edition's. */
  readonly schemaVersion?: string;
};

export const scorm2004Manifest = (options: Scorm2004Options): string => {
  const parameters = options.platformOrigin ? ` parameters="?platform=${encodeURIComponent(options.platformOrigin)}"` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${SCORM2004.identifier}" version="1"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>${escapeXml(options.schemaVersion ?? SCORM2004.version(options.edition))}</schemaversion>
  </metadata>
  <organizations default="ORG-1">
    <organization identifier="ORG-1">
      <title>${escapeXml(SCORM2004.title(options.edition))}</title>
      <item identifier="${SCORM2004.itemId}" identifierref="RES-1"${parameters}>
        <title>${escapeXml(SCORM2004.itemTitle)}</title>
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="PRIMARY" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${SCORM2004.masteryScore / 100}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="RES-1" type="webcontent" adlcp:scormType="sco" xml:base="sco/" href="index.html">
      <file href="index.html"/>
      <file href="sco.js"/>
    </resource>
  </resources>
</manifest>
`;
};

export const scorm2004Files = (options: Scorm2004Options = { edition: 4 }): ContentFiles =>
  filesOf({ 'imsmanifest.xml': scorm2004Manifest(options), ...scoFiles('sco/', SCORM2004.itemTitle, '2004') });

export const scorm2004Package = (options: Scorm2004Options = { edition: 4 }): Buffer => zipOf(scorm2004Files(options));

/* cmi5 */

export type Cmi5Options = {
  readonly moveOn?: string;
  /** 0..1; null leaves it out. */
  readonly masteryScore?: number | null;
  readonly launchParameters?: string;
  /** Added to the AU's url (?platform=...), for the token probe. */
  readonly platformOrigin?: string;
  /** The AU's url instead of au/index.html. */
  readonly url?: string;
};

export const cmi5Manifest = (options: Cmi5Options = {}): string => {
  const masteryScore = options.masteryScore === undefined ? CMI5.masteryScore : options.masteryScore;
  const url = options.url ?? (options.platformOrigin ? `${CMI5.launch}?platform=${encodeURIComponent(options.platformOrigin)}` : CMI5.launch);
  return `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="${CMI5.courseId}">
    <title>
      <langstring lang="en-US">Vaccine storage (cmi5)</langstring>
      <langstring lang="sl-SI">${escapeXml(CMI5.title)}</langstring>
    </title>
    <description>
      <langstring lang="sl-SI">Kako hranimo cepiva v lekarni.</langstring>
    </description>
  </course>
  <au id="${CMI5.auId}" moveOn="${escapeXml(options.moveOn ?? CMI5.moveOn)}"${masteryScore === null ? '' : ` masteryScore="${masteryScore}"`} launchMethod="AnyWindow">
    <title>
      <langstring lang="en-US">Storing vaccines</langstring>
      <langstring lang="sl-SI">${escapeXml(CMI5.auTitle)}</langstring>
    </title>
    <description>
      <langstring lang="sl-SI">Hladna veriga in beleženje temperature.</langstring>
    </description>
    <url>${escapeXml(url)}</url>
${options.launchParameters === undefined ? '' : `    <launchParameters>${escapeXml(options.launchParameters)}</launchParameters>\n`}  </au>
</courseStructure>
`;
};

export const cmi5Files = (options: Cmi5Options = {}): ContentFiles => filesOf({ 'cmi5.xml': cmi5Manifest(options), ...auFiles('au/', CMI5.auTitle) });

export const cmi5Package = (options: Cmi5Options = {}): Buffer => zipOf(cmi5Files(options));

/* Several SCOs (SCORM 1.2): a folder item holding two SCOs, then an item of an asset, which is not launchable. */

export const multiScoManifest = (): string => {
  const [intro, check] = MULTI_SCO.items;
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${MULTI_SCO.identifier}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="ORG-1">
    <organization identifier="ORG-1">
      <title>${escapeXml(MULTI_SCO.title)}</title>
      <item identifier="modul-1">
        <title>Modul 1</title>
        <item identifier="${intro.id}" identifierref="RES-1">
          <title>${escapeXml(intro.title)}</title>
        </item>
        <item identifier="${check.id}" identifierref="RES-2" parameters="?del=2">
          <title>${escapeXml(check.title)}</title>
          <adlcp:masteryscore>${check.masteryScore}</adlcp:masteryscore>
        </item>
      </item>
      <item identifier="priloge" identifierref="RES-3">
        <title>Priloge</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="RES-1" type="webcontent" adlcp:scormtype="sco" href="sco1/index.html">
      <file href="sco1/index.html"/>
    </resource>
    <resource identifier="RES-2" type="webcontent" adlcp:scormtype="sco" xml:base="sco2/" href="index.html">
      <file href="index.html"/>
    </resource>
    <resource identifier="RES-3" type="webcontent" adlcp:scormtype="asset" href="priloge/navodila.html">
      <file href="priloge/navodila.html"/>
    </resource>
  </resources>
</manifest>
`;
};

export const multiScoFiles = (): ContentFiles =>
  filesOf({
    'imsmanifest.xml': multiScoManifest(),
    ...scoFiles('sco1/', MULTI_SCO.items[0].title, '1.2'),
    ...scoFiles('sco2/', MULTI_SCO.items[1].title, '1.2'),
    'priloge/navodila.html': '<!doctype html><html lang="sl"><head><meta charset="utf-8"><title>Navodila</title></head><body><p>Navodila.</p></body></html>\n',
  });

export const multiScoPackage = (): Buffer => zipOf(multiScoFiles());

/* Hostile and malformed packages: a valid SCORM 1.2 package with one thing wrong. */

const HARMLESS = 'console.log("paket");\n';

export const zipSlipPackage = (): Buffer => zipOf(scorm12Files(), [{ name: HOSTILE.zipSlip, data: HARMLESS }]);
export const symlinkPackage = (): Buffer => zipOf(scorm12Files(), [{ name: HOSTILE.symlink, data: '/etc/passwd', method: 'store', mode: 0o120777 }]);
export const absolutePathPackage = (): Buffer => zipOf(scorm12Files(), [{ name: HOSTILE.absolutePath, data: HARMLESS }]);

let bomb: Buffer | undefined;
/** 50 MB of zeros in one entry: a ratio of about 1000, far over any sensible limit. Built once. */
export const bombRatioPackage = (): Buffer => {
  bomb ??= zipOf(scorm12Files(), [{ name: HOSTILE.bomb, data: Buffer.alloc(HOSTILE.bombBytes) }]);
  return bomb;
};

/** More entries than the default limit (10 000), each an empty stored file. */
export const tooManyEntriesPackage = (count: number = HOSTILE.tooManyEntries): Buffer =>
  zipOf(
    scorm12Files(),
    Array.from({ length: count }, (_, i) => ({ name: `filler/${i}.txt` })),
  );

/** An entry with the encrypted flag (traditional PKWARE encryption: stored data is 12 header bytes longer than the file). */
export const encryptedPackage = (): Buffer =>
  zipOf(scorm12Files(), [{ name: HOSTILE.encrypted, data: Buffer.alloc(32, 7), method: 'store', encrypted: true, declaredUncompressedSize: 20 }]);
/** index.html twice. */
export const duplicatePathPackage = (): Buffer => zipOf(scorm12Files(), [{ name: `./${HOSTILE.duplicate}`, data: '<p>druga</p>' }]);
/** A deflated entry that says it holds 100 bytes and inflates to 4 MB: the ratio check sees 100 / ~4 kB, so only counting catches it. */
export const lyingSizePackage = (): Buffer =>
  zipOf(scorm12Files(), [{ name: HOSTILE.lyingSize, data: Buffer.alloc(4 * 1024 * 1024), declaredUncompressedSize: 100 }]);

export const noManifestPackage = (): Buffer => {
  const files = scorm12Files();
  files.delete('imsmanifest.xml');
  return zipOf(files);
};

/** The only resource is an asset, not a SCO. */
export const noLaunchablePackage = (): Buffer => zipOf(scorm12Files({ scormType: 'asset' }));
export const launchOutsidePackage = (): Buffer => zipOf(scorm12Files({ href: HOSTILE.launchOutside }));
export const unsupportedVersionPackage = (): Buffer => zipOf(scorm12Files({ schemaVersion: HOSTILE.unsupportedVersion }));
/** A cmi5 AU launched from another site. */
export const externalAuPackage = (): Buffer => zipOf(cmi5Files({ url: HOSTILE.external }));
export const notAZip = (): Buffer => Buffer.from('To ni arhiv ZIP, le besedilo.\n', 'utf8');

/** An external entity (XXE) in imsmanifest.xml: refused for its DOCTYPE, never resolved. */
export const xxeManifest = (): string =>
  scorm12Manifest()
    .replace('<manifest ', '<!DOCTYPE manifest [\n  <!ENTITY xxe SYSTEM "file:///etc/passwd">\n  <!ENTITY lol "lol">\n]>\n<manifest ')
    .replace(`<title>${SCORM12.title}</title>`, '<title>&xxe;&lol;</title>');
export const xxePackage = (): Buffer => {
  const files = scorm12Files();
  files.set('imsmanifest.xml', Buffer.from(xxeManifest(), 'utf8'));
  return zipOf(files);
};
