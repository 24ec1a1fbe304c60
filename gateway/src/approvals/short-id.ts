/** Characters of an approval id that notices show. */
export const SHORT_ID_LENGTH = 8;

/** The id as notices show it and chat replies name it. */
export const shortId = (id: string): string => id.slice(0, SHORT_ID_LENGTH);
