// Content negotiation: picks the best of the media types a route offers for an Accept header (RFC 9110 §12.5.1:
// q-values, type/* and */* ranges, parameters such as JSON-LD's profile).

interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
  order: number;
}

function parseRanges(header: string): MediaRange[] {
  return header
    .split(',')
    .map((part, order) => {
      const [media = '', ...rest] = part.trim().split(';');
      const [type = '', subtype = ''] = media.trim().toLowerCase().split('/');
      const params: Record<string, string> = {};
      let q = 1;
      for (const param of rest) {
        const [key = '', ...value] = param.split('=');
        const name = key.trim().toLowerCase();
        const text = value
          .join('=')
          .trim()
          .replace(/^"(.*)"$/, '$1');
        if (name === 'q') q = Number.isFinite(Number(text)) ? Number(text) : 0;
        else if (name) params[name] = text;
      }
      return { type, subtype, params, q, order };
    })
    .filter((range) => range.type !== '' && range.subtype !== '');
}

export interface Offer {
  /** The media type, e.g. `application/ld+json`. */
  type: string;
  /** Parameters that must match when the client names them (e.g. `profile`). */
  params?: Record<string, string>;
  /** Offered only to a range that names every one of `params` (not to `*\/*`, nor to the bare type). */
  onlyNamed?: boolean;
}

function matches(range: MediaRange, offer: Offer): number {
  const [type, subtype] = offer.type.split('/');
  if (range.type !== '*' && range.type !== type) return -1;
  if (range.subtype !== '*' && range.subtype !== subtype) return -1;
  for (const [key, value] of Object.entries(range.params)) if (offer.params?.[key] !== value) return -1;
  if (offer.onlyNamed && Object.keys(offer.params ?? {}).some((key) => !(key in range.params))) return -1;
  // More specific ranges win: exact type and subtype, then parameters.
  return (range.type === '*' ? 0 : 2) + (range.subtype === '*' ? 0 : 1) + Object.keys(range.params).length * 4;
}

/**
 * The index of the best offer for `accept` (the first offer when there is no header), or -1 when none is acceptable.
 */
export function negotiate(accept: string | undefined, offers: Offer[]): number {
  if (!accept || accept.trim() === '') return 0;
  const ranges = parseRanges(accept);
  let best = -1;
  let bestQ = 0;
  offers.forEach((offer, index) => {
    // The most specific range that matches an offer decides its quality.
    let q = -1;
    let specificity = -1;
    for (const range of ranges) {
      const score = matches(range, offer);
      if (score > specificity) {
        specificity = score;
        q = range.q;
      }
    }
    // Equal quality: the route's own order of preference decides.
    if (q > bestQ) {
      best = index;
      bestQ = q;
    }
  });
  return bestQ > 0 ? best : -1;
}
