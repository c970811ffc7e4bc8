import { describe, expect, it } from 'vitest';
import { addParameters, joinReference, resolveLaunch } from '../../domain/packages/launch-path.ts';
import { readPackageManifest } from '../../domain/packages/package-manifest.ts';
import type { PackageFiles } from '../../domain/packages/package-structure.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import {
  CMI5,
  cmi5Files,
  cmi5Manifest,
  filesOf,
  HOSTILE,
  MULTI_SCO,
  multiScoFiles,
  SCORM12,
  SCORM2004,
  scorm12Files,
  scorm12Manifest,
  scorm2004Files,
  xxeManifest,
} from '../support/content-packages.ts';

/** The refusal's message, after checking it is the upload's 400 on `file`. */
const refusal = (files: PackageFiles): string => {
  try {
    readPackageManifest(files);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: '400', status: 400, field: 'file' });
    return (error as DomainError).message;
  }
  throw new Error('the package was not refused');
};

/** A SCORM 1.2 manifest around the given organization items and resources, with index.html in the package. */
const scorm12 = (body: { items: string; resources: string; version?: string; base?: string }, files: Record<string, string> = { 'index.html': '' }) =>
  filesOf({
    'imsmanifest.xml': `<?xml version="1.0"?>
<manifest identifier="M1" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"${body.base ? ` xml:base="${body.base}"` : ''}>
  <metadata><schemaversion>${body.version ?? '1.2'}</schemaversion></metadata>
  <organizations default="O1"><organization identifier="O1"><title>Tečaj</title>${body.items}</organization></organizations>
  <resources>${body.resources}</resources>
</manifest>`,
    ...files,
  });

const sco = (href: string, extra = '') => `<resource identifier="R1" type="webcontent" adlcp:scormtype="sco" href="${href}"${extra}/>`;
const item = (extra = '', inner = '<title>Enota</title>') => `<item identifier="I1" identifierref="R1"${extra}>${inner}</item>`;

/** A cmi5.xml with the given content after the course, and the AU pages it names. */
const cmi5 = (content: string, files: Record<string, string> = { 'au.html': '' }) =>
  filesOf({
    'cmi5.xml': `<?xml version="1.0"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="https://x.example/c"><title><langstring lang="sl">Tečaj</langstring></title><description/></course>
  ${content}
</courseStructure>`,
    ...files,
  });
const au = (id: string, attributes = '', url = 'au.html', title = `<langstring lang="sl">${id}</langstring>`) =>
  `<au id="${id}"${attributes}><title>${title}</title><description/><url>${url}</url></au>`;

describe('readPackageManifest: the packages the tests play', () => {
  it('reads SCORM 1.2', () => {
    expect(readPackageManifest(scorm12Files())).toEqual({
      standard: 'scorm12',
      version: '1.2',
      title: SCORM12.title,
      identifier: SCORM12.identifier,
      items: [
        { id: SCORM12.itemId, title: SCORM12.itemTitle, launch: SCORM12.launch, masteryScore: SCORM12.masteryScore, moveOn: null, launchParameters: null },
      ],
    });
  });

  it.each([3, 4] as const)('reads SCORM 2004 %ith edition, launched through the resource xml:base', (edition) => {
    expect(readPackageManifest(scorm2004Files({ edition }))).toEqual({
      standard: 'scorm2004',
      version: SCORM2004.version(edition),
      title: SCORM2004.title(edition),
      identifier: SCORM2004.identifier,
      items: [
        {
          id: SCORM2004.itemId,
          title: SCORM2004.itemTitle,
          launch: SCORM2004.launch,
          masteryScore: SCORM2004.masteryScore,
          moveOn: null,
          launchParameters: null,
        },
      ],
    });
  });

  it('reads cmi5, its titles in Slovenian although English comes first, the mastery score as 0-100', () => {
    expect(readPackageManifest(cmi5Files({ launchParameters: '{"jezik":"sl"}' }))).toEqual({
      standard: 'cmi5',
      version: '1.0',
      title: CMI5.title,
      identifier: CMI5.courseId,
      items: [{ id: CMI5.auId, title: CMI5.auTitle, launch: CMI5.launch, masteryScore: 70, moveOn: CMI5.moveOn, launchParameters: '{"jezik":"sl"}' }],
    });
  });

  it('reads several SCOs in document order, nested ones too, skipping the folder item and the asset', () => {
    const structure = readPackageManifest(multiScoFiles());
    expect(structure.title).toBe(MULTI_SCO.title);
    expect(structure.items.map(({ id, title, launch, masteryScore }) => ({ id, title, launch, masteryScore }))).toEqual(MULTI_SCO.items);
  });

  it('keeps the platform origin for the token probe in the launch', () => {
    expect(readPackageManifest(scorm12Files({ platformOrigin: 'http://localhost:3000' })).items[0]?.launch).toBe(
      'index.html?platform=http%3A%2F%2Flocalhost%3A3000',
    );
    expect(readPackageManifest(cmi5Files({ platformOrigin: 'http://localhost:3000' })).items[0]?.launch).toBe(
      'au/index.html?platform=http%3A%2F%2Flocalhost%3A3000',
    );
  });
});

describe('readPackageManifest: recognising the package by content', () => {
  it('refuses a package with neither manifest', () => {
    expect(refusal(filesOf({ 'index.html': '' }))).toBe('Paket nima datoteke imsmanifest.xml (SCORM) ali cmi5.xml (cmi5).');
  });

  it('says where the manifest is when the folder instead of its content was zipped', () => {
    const nested = new Map([...scorm12Files()].map(([path, bytes]) => [`tecaj/${path}`, bytes]));
    expect(refusal(nested)).toBe(
      'Paket nima datoteke imsmanifest.xml (SCORM) ali cmi5.xml (cmi5) v korenu, temveč v mapi: tecaj/imsmanifest.xml. Zapakirajte vsebino te mape.',
    );
  });

  it('refuses a package with both manifests', () => {
    expect(refusal(new Map([...scorm12Files(), ...cmi5Files()]))).toBe(
      'Paket ima obe datoteki, imsmanifest.xml (SCORM) in cmi5.xml (cmi5); naložite paket le enega standarda.',
    );
  });

  it('finds the manifest whatever its letter case', () => {
    const files = scorm12Files();
    files.set('IMSManifest.xml', files.get('imsmanifest.xml') as Buffer);
    files.delete('imsmanifest.xml');
    expect(readPackageManifest(files).standard).toBe('scorm12');
  });
});

describe('readPackageManifest: SCORM versions', () => {
  it('reads 1.2 from the namespace when the metadata is left out', () => {
    expect(readPackageManifest(scorm12Files({ schemaVersion: null })).version).toBe('1.2');
  });

  it.each([
    ['CAM 1.3', '2004 3rd Edition'],
    ['2004 3rd Edition', '2004 3rd Edition'],
    [' 2004  4th   edition ', '2004 4th Edition'],
  ])('reads schemaversion %j as %s', (given, version) => {
    expect(readPackageManifest(scorm12({ version: given, items: item(), resources: sco('index.html') })).version).toBe(version);
  });

  it.each([HOSTILE.unsupportedVersion, '1.1', '2004 5th Edition'])('refuses version %s', (given) => {
    expect(refusal(scorm12({ version: given, items: item(), resources: sco('index.html') }))).toBe(
      `Različica SCORM »${given}« ni podprta (podprti sta 1.2 in 2004, 3. in 4. izdaja).`,
    );
  });

  it('refuses a manifest that names no version outside SCORM 1.2', () => {
    const manifest = scorm2004Files({ edition: 4 })
      .get('imsmanifest.xml')
      ?.toString()
      .replace(/<metadata>[\s\S]*<\/metadata>/, '') as string;
    expect(refusal(filesOf({ ...Object.fromEntries(scorm2004Files({ edition: 4 })), 'imsmanifest.xml': manifest }))).toBe(
      'Različica SCORM v datoteki imsmanifest.xml ni navedena (podprti sta 1.2 in 2004, 3. in 4. izdaja).',
    );
  });
});

describe('readPackageManifest: SCORM items and launches', () => {
  it('refuses a package with no SCO (an asset only, or no items)', () => {
    const message = 'Paket nima nobene enote za zagon (SCO/AU).';
    expect(refusal(scorm12Files({ scormType: 'asset' }))).toBe(message);
    expect(refusal(scorm12({ items: '', resources: sco('index.html') }))).toBe(message);
    expect(refusal(scorm12({ items: item(), resources: '<resource identifier="R1" type="webcontent" adlcp:scormtype="sco"/>' }))).toBe(message);
  });

  it('reads the default organization, not the first', () => {
    const files = filesOf({
      'imsmanifest.xml': `<manifest identifier="M" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"><metadata><schemaversion>1.2</schemaversion></metadata>
  <organizations default="B">
    <organization identifier="A"><title>Prva</title><item identifier="IA" identifierref="R1"><title>A</title></item></organization>
    <organization identifier="B"><title>Druga</title><item identifier="IB" identifierref="R1"><title>B</title></item></organization>
  </organizations>
  <resources>${sco('index.html')}</resources></manifest>`,
      'index.html': '',
    });
    const structure = readPackageManifest(files);
    expect([structure.title, structure.items.map((i) => i.id)]).toEqual(['Druga', ['IB']]);
  });

  it('joins the xml:base chain (manifest, resources, resource) and the href', () => {
    const files = filesOf({
      'imsmanifest.xml': `<manifest identifier="M" xml:base="tecaj/" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"><metadata><schemaversion>1.2</schemaversion></metadata>
  <organizations default="O"><organization identifier="O"><title>T</title>${item()}</organization></organizations>
  <resources xml:base="vsebina"><resource identifier="R1" type="webcontent" adlcp:scormtype="sco" xml:base="sco/" href="start.html"/></resources></manifest>`,
      'tecaj/vsebina/sco/start.html': '',
    });
    expect(readPackageManifest(files).items[0]?.launch).toBe('tecaj/vsebina/sco/start.html');
  });

  it('adds the item parameters by the SCORM rules, decoding the XML entities', () => {
    expect(readPackageManifest(scorm12({ items: item(' parameters="?a=1&amp;b=2"'), resources: sco('index.html?x=0') })).items[0]?.launch).toBe(
      'index.html?x=0&a=1&b=2',
    );
  });

  it('reads 1.2 masteryscore 0-100 and ignores one that is not', () => {
    const score = (given: string) =>
      readPackageManifest(scorm12({ items: item('', `<title>E</title><adlcp:masteryscore>${given}</adlcp:masteryscore>`), resources: sco('index.html') }))
        .items[0]?.masteryScore;
    expect([score('85'), score('0'), score('100'), score('150'), score('-1'), score('veliko'), score('')]).toEqual([85, 0, 100, null, null, null, null]);
  });

  it('reads the 2004 mastery score from the primary objective satisfied by measure', () => {
    const score = (objective: string) =>
      readPackageManifest(
        scorm12({
          version: '2004 4th Edition',
          items: item('', `<title>E</title><imsss:sequencing><imsss:objectives>${objective}</imsss:objectives></imsss:sequencing>`),
          resources: sco('index.html'),
        }),
      ).items[0]?.masteryScore;
    expect(
      score('<imsss:primaryObjective satisfiedByMeasure="true"><imsss:minNormalizedMeasure>0.85</imsss:minNormalizedMeasure></imsss:primaryObjective>'),
    ).toBe(85);
    expect(
      score('<imsss:primaryObjective satisfiedByMeasure="true"><imsss:minNormalizedMeasure>0.7</imsss:minNormalizedMeasure></imsss:primaryObjective>'),
    ).toBe(70);
    // IMS SS: minNormalizedMeasure defaults to 1.0.
    expect(score('<imsss:primaryObjective satisfiedByMeasure="true"/>')).toBe(100);
    expect(
      score('<imsss:primaryObjective satisfiedByMeasure="false"><imsss:minNormalizedMeasure>0.85</imsss:minNormalizedMeasure></imsss:primaryObjective>'),
    ).toBe(null);
    expect(score('<imsss:primaryObjective><imsss:minNormalizedMeasure>0.85</imsss:minNormalizedMeasure></imsss:primaryObjective>')).toBe(null);
    expect(score('')).toBe(null);
  });

  it('trims titles, decodes entities in them, and falls back to the id', () => {
    const files = scorm12({
      items: `${item('', '<title>  A &amp; B &#269;  </title>')}<item identifier="I2" identifierref="R1"><title> </title></item>`,
      resources: sco('index.html'),
    });
    expect(readPackageManifest(files).items.map((i) => i.title)).toEqual(['A & B č', 'I2']);
  });

  it('reads a manifest with a byte order mark, and one in UTF-16', () => {
    const source = scorm12Files().get('imsmanifest.xml') as Buffer;
    const bom = new Map([...scorm12Files(), ['imsmanifest.xml', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), source])]]);
    expect(readPackageManifest(bom).items[0]?.title).toBe(SCORM12.itemTitle);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(source.toString('utf8').replace('encoding="UTF-8"', 'encoding="UTF-16"'), 'utf16le')]);
    expect(readPackageManifest(new Map([...scorm12Files(), ['imsmanifest.xml', utf16]])).items[0]?.title).toBe(SCORM12.itemTitle);
  });

  it('resolves dot segments inside the package, and percent-decodes the file name', () => {
    expect(readPackageManifest(scorm12({ items: item(), resources: sco('sco/../index.html#zacetek') })).items[0]?.launch).toBe('index.html#zacetek');
    expect(readPackageManifest(scorm12({ items: item(), resources: sco('moja%20stran.html?x=1') }, { 'moja stran.html': '' })).items[0]?.launch).toBe(
      'moja%20stran.html?x=1',
    );
  });

  it.each([HOSTILE.launchOutside, 'sco/../../x.html', '%2e%2e/x.html', '/x.html', 'C:\\x.html', '..\\x.html', 'a%2F..%2F..%2Fx.html'])(
    'refuses a launch outside the package: %s',
    (href) => {
      // The message shows the reference as resolved: xml:base chain and href, backslashes as slashes.
      expect(refusal(scorm12({ items: item(), resources: sco(href) }))).toBe(`Enota »Enota« se zaganja s poti zunaj paketa: ${href.replaceAll('\\', '/')}.`);
    },
  );

  it.each(['http://evil.example/x.html', 'https://evil.example/x.html', '//evil.example/x.html', 'javascript:alert(1)', 'data:text/html,x'])(
    'refuses a launch from another site: %s',
    (href) => {
      expect(refusal(scorm12({ items: item(), resources: sco(href) }))).toBe(
        `Enota »Enota« se zaganja z zunanjega naslova (${href}); podprte so le enote v paketu.`,
      );
    },
  );

  it('refuses a launch file that is not in the package, query and fragment stripped', () => {
    expect(refusal(scorm12({ items: item(), resources: sco('manjka.html?a=1#b') }))).toBe('Datoteka za zagon enote »Enota« (manjka.html) ni v paketu.');
    expect(refusal(scorm12({ items: item(), resources: sco('Index.html') }))).toBe('Datoteka za zagon enote »Enota« (Index.html) ni v paketu.');
    expect(refusal(scorm12({ items: item(), resources: sco('mapa/') }, { 'mapa/index.html': '' }))).toBe(
      'Datoteka za zagon enote »Enota« (mapa/) ni v paketu.',
    );
    expect(refusal(scorm12({ items: item(), resources: sco('%E0%A4%A.html') }))).toBe('Datoteka za zagon enote »Enota« (%E0%A4%A.html) ni v paketu.');
  });

  it('refuses two items with one identifier', () => {
    expect(refusal(scorm12({ items: item() + item(), resources: sco('index.html') }))).toBe('Paket ima več enot z istim identifikatorjem: I1.');
  });
});

describe('readPackageManifest: XML that is not a manifest', () => {
  it('refuses malformed XML, naming the file', () => {
    expect(refusal(filesOf({ 'imsmanifest.xml': '<manifest><organizations></manifest>' }))).toMatch(/^Datoteka imsmanifest\.xml ni veljaven XML/);
    expect(refusal(filesOf({ 'cmi5.xml': '<courseStructure><au></courseStructure>' }))).toMatch(/^Datoteka cmi5\.xml ni veljaven XML/);
    expect(refusal(filesOf({ 'imsmanifest.xml': 'to ni XML' }))).toMatch(/^Datoteka imsmanifest\.xml ni veljaven XML/);
  });

  it('refuses a DOCTYPE or ENTITY declaration (XXE, entity expansion) before parsing', () => {
    const message = 'Datoteka imsmanifest.xml vsebuje deklaracijo DOCTYPE ali ENTITY, ki ni dovoljena.';
    expect(refusal(new Map([...scorm12Files(), ['imsmanifest.xml', Buffer.from(xxeManifest())]]))).toBe(message);
    expect(refusal(filesOf({ 'imsmanifest.xml': `<!DOCTYPE manifest>${scorm12Manifest().replace(/^<\?xml[^>]*>/, '')}`, 'index.html': '' }))).toBe(message);
    expect(refusal(filesOf({ 'cmi5.xml': '<!doctype x [<!ENTITY a "aaaa">]><courseStructure>&a;</courseStructure>' }))).toBe(
      'Datoteka cmi5.xml vsebuje deklaracijo DOCTYPE ali ENTITY, ki ni dovoljena.',
    );
  });

  it('leaves unknown entities as written (nothing is expanded)', () => {
    const files = scorm12({ items: item('', '<title>&xxe;</title>'), resources: sco('index.html') });
    expect(readPackageManifest(files).items[0]?.title).toBe('&xxe;');
  });

  it('refuses a manifest whose root is something else', () => {
    expect(refusal(filesOf({ 'imsmanifest.xml': '<html/>' }))).toBe('Datoteka imsmanifest.xml ni manifest SCORM (korenski element je »html«).');
    expect(refusal(filesOf({ 'cmi5.xml': '<manifest/>' }))).toBe('Datoteka cmi5.xml ni opis tečaja cmi5 (korenski element je »manifest«).');
  });

  it('refuses nesting deeper than any manifest has, rather than overflowing the stack', () => {
    const deep = `${'<item>'.repeat(200)}${'</item>'.repeat(200)}`;
    expect(refusal(scorm12({ items: deep, resources: sco('index.html') }))).toBe('Datoteka imsmanifest.xml je pregloboko gnezdena.');
  });
});

describe('readPackageManifest: cmi5', () => {
  it('lists AUs in document order, also inside blocks, with moveOn NotApplicable by default', () => {
    const files = cmi5(
      `${au('a1')}<block id="b1"><title/><description/>${au('a2', ' moveOn="Passed"')}<block id="b2"><title/><description/>${au('a3')}</block></block>${au('a4')}`,
    );
    const structure = readPackageManifest(files);
    expect(structure.items.map((i) => [i.id, i.moveOn])).toEqual([
      ['a1', 'NotApplicable'],
      ['a2', 'Passed'],
      ['a3', 'NotApplicable'],
      ['a4', 'NotApplicable'],
    ]);
    expect([structure.title, structure.identifier]).toEqual(['Tečaj', 'https://x.example/c']);
  });

  it('takes the title in Slovenian, else English, else the first, else the id', () => {
    const title = (langstrings: string) => readPackageManifest(cmi5(au('a1', '', 'au.html', langstrings))).items[0]?.title;
    expect(title('<langstring lang="de">Kurs</langstring><langstring lang="en-GB">Course</langstring><langstring lang="sl-SI"> Tečaj </langstring>')).toBe(
      'Tečaj',
    );
    expect(title('<langstring lang="de">Kurs</langstring><langstring lang="en">Course</langstring>')).toBe('Course');
    expect(title('<langstring lang="de">Kurs</langstring><langstring lang="fr">Cours</langstring>')).toBe('Kurs');
    expect(title('<langstring lang="sl"> </langstring>')).toBe('a1');
  });

  it('reads masteryScore 0..1 as 0-100, and refuses one out of range', () => {
    expect(readPackageManifest(cmi5(au('a1', ' masteryScore="0.85"'))).items[0]?.masteryScore).toBe(85);
    expect(readPackageManifest(cmi5(au('a1'))).items[0]?.masteryScore).toBe(null);
    expect(refusal(cmi5(au('a1', ' masteryScore="85"')))).toBe('Enota »a1« ima neveljaven masteryScore »85« (med 0 in 1).');
  });

  it('refuses an unknown moveOn', () => {
    expect(refusal(cmi5(au('a1', ' moveOn="Whenever"')))).toBe(
      'Enota »a1« ima neznano pravilo moveOn »Whenever« (dovoljena so Passed, Completed, CompletedAndPassed, CompletedOrPassed, NotApplicable).',
    );
  });

  it('refuses an AU launched from another site, or from outside the package, or missing', () => {
    expect(refusal(cmi5Files({ url: HOSTILE.external }))).toBe(
      `Enota »${CMI5.auTitle}« se zaganja z zunanjega naslova (${HOSTILE.external}); podprte so le enote v paketu.`,
    );
    expect(refusal(cmi5(au('a1', '', '../au.html')))).toBe('Enota »a1« se zaganja s poti zunaj paketa: ../au.html.');
    expect(refusal(cmi5(au('a1', '', 'manjka.html?x=1')))).toBe('Datoteka za zagon enote »a1« (manjka.html) ni v paketu.');
  });

  it('refuses a course without an id, an AU without an id, no AUs, and two AUs with one id', () => {
    expect(refusal(filesOf({ 'cmi5.xml': '<courseStructure><course><title/></course></courseStructure>' }))).toBe(
      'Datoteka cmi5.xml nima elementa course z atributom id.',
    );
    expect(refusal(cmi5('<au><title><langstring>Brez</langstring></title><url>au.html</url></au>'))).toBe(
      'Enota (AU) št. 1 »Brez« v datoteki cmi5.xml nima atributa id.',
    );
    expect(refusal(cmi5(''))).toBe('Paket nima nobene enote za zagon (SCO/AU).');
    expect(refusal(cmi5(au('a1') + au('a1')))).toBe('Paket ima več enot z istim identifikatorjem: a1.');
  });

  it('keeps the cmi5 manifest the builder writes readable with the defaults left out', () => {
    const files = new Map([...cmi5Files(), ['cmi5.xml', Buffer.from(cmi5Manifest({ masteryScore: null, moveOn: 'Completed' }))]]);
    expect(readPackageManifest(files).items[0]).toMatchObject({ masteryScore: null, moveOn: 'Completed', launchParameters: null });
  });
});

describe('launch references', () => {
  it.each([
    ['index.html', '?a=1', 'index.html?a=1'],
    ['index.html', 'a=1', 'index.html?a=1'],
    ['index.html', '&a=1', 'index.html?a=1'],
    ['index.html?x=0', '?a=1', 'index.html?x=0&a=1'],
    ['index.html#top', '?a=1', 'index.html?a=1#top'],
    ['index.html', '#top', 'index.html#top'],
    ['index.html#start', '#top', 'index.html#start'],
    ['index.html', '  ', 'index.html'],
    ['index.html', '?', 'index.html'],
  ])('adds parameters: %s + %j = %s', (href, parameters, launch) => {
    expect(addParameters(href, parameters)).toBe(launch);
  });

  it('joins bases with one slash, an absolute part starting over', () => {
    expect(joinReference(['a/', 'b', undefined, 'c/d.html'])).toBe('a/b/c/d.html');
    expect(joinReference(['a/', 'http://x.example/', 'i.html'])).toBe('http://x.example/i.html');
    expect(joinReference(['a/', '', '/i.html'])).toBe('/i.html');
  });

  it('resolves what a browser would load', () => {
    expect(resolveLaunch('./a/./b/../c.html?x#y')).toEqual({ kind: 'inside', launch: 'a/c.html?x#y', file: 'a/c.html' });
    expect(resolveLaunch('a%2Fb.html').kind).toBe('outside');
    expect(resolveLaunch('').kind).toBe('invalid');
  });
});
