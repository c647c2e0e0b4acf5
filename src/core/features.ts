/** Account features that gate parts of the interface. */
export const FEATURES = ['returns', 'booking', 'preprinted_return_labels'] as const;
export type Feature = (typeof FEATURES)[number];
