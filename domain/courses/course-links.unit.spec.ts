import { describe, expect, it } from 'vitest';
import { linkedCourseIds, linkForm } from './course-links.ts';

describe('the courses a text links to (decision 0062: an RX link decides who gets the text)', () => {
  it('finds the plain paths of a button and a text', () => {
    expect(linkedCourseIds('/izobrazevanja/7', '<p><a href="/courses/12/end">konec</a> in https://medilearn.si/izobrazevanja/9/bloki/2</p>')).toEqual([
      7, 12, 9,
    ]);
    expect(linkedCourseIds(null, undefined, '')).toEqual([]);
    expect(linkedCourseIds('/izobrazevanja', '/izobrazevanja?filter=new', '/profil/izobrazevanja')).toEqual([]);
  });

  it('finds a link written with HTML character references', () => {
    expect(linkedCourseIds('<a href="&#47;izobrazevanja&#47;7">x</a>')).toEqual([7]);
    expect(linkedCourseIds('<a href="&#x2F;izobrazevanja&#X2f;8">x</a>')).toEqual([8]);
    expect(linkedCourseIds('<a href="&sol;izobrazevanja&sol;9">x</a>')).toEqual([9]);
    // Without the semicolon, and digits written as references.
    expect(linkedCourseIds('<a href="&#47izobrazevanja&#47&#49;&#48;">x</a>')).toEqual([10]);
    // Letters of the path as references.
    expect(linkedCourseIds('<a href="/&#105;zobrazevanja/11">x</a>')).toEqual([11]);
  });

  it('finds a percent-encoded link, also encoded twice', () => {
    expect(linkedCourseIds('%2Fizobrazevanja%2F7')).toEqual([7]);
    expect(linkedCourseIds('/%69zobrazevanja/%38')).toEqual([8]);
    expect(linkedCourseIds('https://medilearn.si/%252Fizobrazevanja%252F9')).toEqual([9]);
    expect(linkedCourseIds('<a href="&#37;2Fizobrazevanja&#37;2F10">x</a>')).toEqual([10]);
  });

  it('finds what a browser and the router treat as the same path', () => {
    expect(linkedCourseIds('/IZOBRAZEVANJA/7')).toEqual([7]);
    expect(linkedCourseIds('\\izobrazevanja\\8')).toEqual([8]);
    expect(linkedCourseIds('/izobra\tzevanja/\n9')).toEqual([9]);
    expect(linkedCourseIds('/izobrazevanja/./10', '/izobrazevanja/x/../11', '/izobrazevanja/0000000000012')).toEqual([10, 11, 12]);
    expect(linkedCourseIds('/izobrazevanja//13')).toEqual([13]);
    // An unrelated `/..` after a link does not swallow it, nor do deeply nested ones.
    expect(linkedCourseIds('<a href="/izobrazevanja/14">x</..>', `${'/a'.repeat(100)}${'/..'.repeat(100)}/izobrazevanja/15`)).toEqual([14, 15]);
  });

  it('ignores what is no course id', () => {
    expect(linkedCourseIds('/izobrazevanja/0', '/izobrazevanja/abc', '/izobrazevanjax/5', '%ZZ/izobrazevanja/%E2%82')).toEqual([]);
    expect(linkForm('a%E2%82%ACb')).toBe('a%E2%82%ACb');
  });
});
