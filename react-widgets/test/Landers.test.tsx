// The landers' clip: who gets it, and when.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { clipAllowed } from '../src/widgets/Landers/shared';

const setConnection = (connection: object | undefined) => Object.defineProperty(navigator, 'connection', { configurable: true, value: connection });
const setMotion = (reduce: boolean) =>
  Object.defineProperty(window, 'matchMedia', { configurable: true, value: (q: string) => ({ matches: reduce && q.includes('reduce'), media: q }) });

afterEach(() => {
  setConnection(undefined);
  Reflect.deleteProperty(window, 'matchMedia');
  vi.restoreAllMocks();
});

describe('clipAllowed', () => {
  test('plays on a good connection, and where the browser says nothing of it', () => {
    setConnection(undefined);
    expect(clipAllowed()).toBe(true);
    setConnection({ effectiveType: '4g', saveData: false });
    expect(clipAllowed()).toBe(true);
    setConnection({ effectiveType: '3g' });
    expect(clipAllowed()).toBe(true);
  });

  test('keeps the poster on Save-Data and on 2G', () => {
    setConnection({ effectiveType: '4g', saveData: true });
    expect(clipAllowed()).toBe(false);
    setConnection({ effectiveType: '2g' });
    expect(clipAllowed()).toBe(false);
    setConnection({ effectiveType: 'slow-2g' });
    expect(clipAllowed()).toBe(false);
  });

  test('keeps the poster for visitors who ask for less motion', () => {
    setMotion(true);
    expect(clipAllowed()).toBe(false);
    setMotion(false);
    expect(clipAllowed()).toBe(true);
  });
});
