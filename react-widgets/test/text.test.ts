import { describe, expect, it } from 'vitest';
import { counted, fill } from '../src/text';

const pl = { lang: 'pl', forms: { one: '{count} kredyt', few: '{count} kredyty', many: '{count} kredytów' } };
const fr = { lang: 'fr', forms: { one: '{count} crédit de {name}', many: '{count} de crédits de {name}', other: '{count} crédits de {name}' } };
const nl = { lang: 'nl', forms: { one: '{count} credit', other: '{count} credits' } };

describe('counted texts', () => {
  // The same CLDR examples as domain::plural's `cldr_examples`: the browser's rules and the server's agree.
  it('picks the form the server would pick', () => {
    expect([0, 1, 2, 12].map((n) => counted(nl, n))).toEqual(['0 credits', '1 credit', '2 credits', '12 credits']);
    expect([0, 1, 2, 4, 5, 12, 14, 21, 22, 25, 102, 112].map((n) => counted(pl, n).split(' ')[1])).toEqual([
      'kredytów',
      'kredyt',
      'kredyty',
      'kredyty',
      'kredytów',
      'kredytów',
      'kredytów',
      'kredytów',
      'kredyty',
      'kredytów',
      'kredyty',
      'kredytów',
    ]);
    expect([0, 1, 2, 1_000_000, 1_000_001].map((n) => counted(fr, n, { name: 'Eva' }))).toEqual([
      '0 crédit de Eva',
      '1 crédit de Eva',
      '2 crédits de Eva',
      '1000000 de crédits de Eva',
      '1000001 crédits de Eva',
    ]);
  });

  it('falls back to other, then to the last form, for a form it was not given', () => {
    expect(counted({ lang: 'fr', forms: { one: 'un', other: 'plusieurs {count}' } }, 2_000_000)).toBe('plusieurs 2000000');
    expect(counted({ lang: 'pl', forms: { one: 'jeden', many: '{count} wielu' } }, 3)).toBe('3 wielu');
    expect(counted({ lang: 'nl', forms: {} }, 3)).toBe('');
  });

  it('fills placeholders as text and leaves unknown ones', () => {
    expect(fill('<b>{name}</b> {x}', { name: '<i>Eva</i>' })).toBe('<b><i>Eva</i></b> {x}');
  });
});
