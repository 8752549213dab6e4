/** What the fleet's device picker offers (issue 33): each device's address in address mode, a bounded list for a big fleet. */
import {
  type FleetChoice,
  fleetChoices,
  firstPageChoices,
  MAX_SHOWN_CHOICES,
  placedByAddress,
  shownChoices,
} from '../../../web/dashboard/fleet-choices';

/** `count` devices, the i-th at `place(i)` (a base URL). */
function fleet(count: number, place: (i: number) => string) {
  return Array.from({ length: count }, (_, i) => ({
    serial: `ACCC8E${String(i + 1).padStart(6, '0')}`,
    urls: { base: place(i), featureFlags: `${place(i)}/svc-cgi/featureflag.cgi` },
  }));
}

const labels = (choices: readonly FleetChoice[]): string[] => choices.map((c) => c.label);

describe('fleetChoices', () => {
  it('labels each device by its address and port in address mode', () => {
    const choices = fleetChoices(fleet(3, (i) => `http://127.1.0.${i + 1}:8080`));
    expect(labels(choices)).toEqual([
      'ACCC8E000001 (127.1.0.1:8080)',
      'ACCC8E000002 (127.1.0.2:8080)',
      'ACCC8E000003 (127.1.0.3:8080)',
    ]);
    expect(choices[1].base).toBe('http://127.1.0.2:8080');
  });

  it('names the default port of a URL without one (80, 443 for https)', () => {
    expect(labels(fleetChoices(fleet(2, (i) => `http://127.1.0.${i + 1}`)))).toEqual([
      'ACCC8E000001 (127.1.0.1:80)',
      'ACCC8E000002 (127.1.0.2:80)',
    ]);
    expect(labels(fleetChoices(fleet(2, (i) => `https://127.1.0.${i + 1}`)))[1]).toBe('ACCC8E000002 (127.1.0.2:443)');
  });

  it('labels a page of a big fleet as the whole fleet is placed, though one device cannot tell', () => {
    const byAddress = placedByAddress(fleet(2, (i) => `http://127.1.0.${i + 1}:80`));
    expect(byAddress).toBe(true);
    expect(placedByAddress(fleet(2, (i) => `http://127.0.0.1:${8080 + i}`))).toBe(false);
    const one = fleet(1, () => 'http://127.1.0.9:80');
    expect(labels(fleetChoices(one, byAddress))).toEqual(['ACCC8E000001 (127.1.0.9:80)']);
    expect(labels(fleetChoices(one))).toEqual(['ACCC8E000001 (port 80)']);
  });

  it('labels each device by its port in ports mode, as before', () => {
    expect(labels(fleetChoices(fleet(2, (i) => `http://127.0.0.1:${8080 + i}`)))).toEqual([
      'ACCC8E000001 (port 8080)',
      'ACCC8E000002 (port 8081)',
    ]);
  });
});

describe('shownChoices', () => {
  const address = (n: number): string => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
  const big = fleetChoices(fleet(100_000, (i) => `http://${address(0x7f010001 + i)}:80`));

  it('shows a small fleet whole', () => {
    const small = fleetChoices(fleet(5, (i) => `http://127.1.0.${i + 1}:80`));
    expect(shownChoices(small, '', 'ACCC8E000003')).toEqual({ shown: small, matched: 5 });
  });

  it('cuts a big fleet to MAX_SHOWN_CHOICES, this device among them', () => {
    const first = shownChoices(big, '', 'ACCC8E000001');
    expect(first.matched).toBe(100_000);
    expect(first.shown).toHaveLength(MAX_SHOWN_CHOICES);
    expect(first.shown[0].serial).toBe('ACCC8E000001');
    const late = shownChoices(big, '', 'ACCC8E050000');
    expect(late.shown).toHaveLength(MAX_SHOWN_CHOICES);
    expect(late.shown[0].serial).toBe('ACCC8E050000');
    expect(late.shown[1].serial).toBe('ACCC8E000001');
  });

  it('finds devices by any part of the serial or the address, any case, every word', () => {
    expect(labels(shownChoices(big, 'accc8e099999', 'ACCC8E000001').shown)).toEqual([
      'ACCC8E099999 (127.2.134.159:80)',
    ]);
    expect(labels(shownChoices(big, ' 127.2.134.160:80 ', 'ACCC8E000001').shown)).toEqual([
      'ACCC8E100000 (127.2.134.160:80)',
    ]);
    const some = shownChoices(big, '127.1.0.1', 'ACCC8E000001');
    expect(some.matched).toBe(111); // 127.1.0.1, 127.1.0.10-19, 127.1.0.100-199
    expect(shownChoices(big, 'ACCC8E0000 127.1.0.2', 'ACCC8E000001').matched).toBe(11);
    expect(shownChoices(big, 'nothing', 'ACCC8E000001')).toEqual({ shown: [], matched: 0 });
  });
});

describe('firstPageChoices', () => {
  const page = fleetChoices(fleet(MAX_SHOWN_CHOICES, (i) => `http://127.1.0.${i + 1}:80`));
  const mine = fleetChoices(fleet(250, (i) => `http://127.1.0.${i + 1}:80`))[249];

  it('shows the first page with this device first when the page does not have it, and the whole count', () => {
    const first = firstPageChoices(page, mine, 100_000);
    expect(first.matched).toBe(100_000);
    expect(first.shown).toHaveLength(MAX_SHOWN_CHOICES);
    expect(first.shown.slice(0, 2).map((c) => c.serial)).toEqual(['ACCC8E000250', 'ACCC8E000001']);
  });

  it('shows the first page as it is when it has this device, or when this device was not found', () => {
    expect(firstPageChoices(page, page[5], 250)).toEqual({ shown: page, matched: 250 });
    expect(firstPageChoices(page, undefined, 250)).toEqual({ shown: page, matched: 250 });
  });
});
