/**
 * The keys of a tax PDF's information dictionary that hold its gains, by the names the CSV and
 * JSON reports give them: the PDF exporter writes them, `txa export create` reads them back to
 * print the totals in the terminal (docs/exports.md "Tax totals in the terminal").
 */
/**
 * Another jurisdiction's tax PDF holds each of its totals under this prefix and the key its JSON
 * report gives it (`TxaTotal_disposal_proceeds`), as money to two decimals or a count.
 */
export const PDF_TOTAL_PREFIX = 'TxaTotal_';

export const PDF_TOTAL_KEYS = {
  short_term_gain: 'TxaShortTermGain',
  long_term_gain: 'TxaLongTermGain',
  total_gain: 'TxaTotalGain',
} as const;
