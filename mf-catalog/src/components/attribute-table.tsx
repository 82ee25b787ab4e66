import type { AttributeEntry } from '@shop/shared-kernel/contract';
import { formatAttributeNumber } from './attribute-number.ts';

function valueText(entry: AttributeEntry): string {
  const unit = entry.units?.unit_name ? ` ${entry.units.unit_name}` : '';
  return entry.attributeValues
    .map((value) => value.av_string ?? (value.av_integer !== null ? formatAttributeNumber(value.av_integer) + unit : ''))
    .filter(Boolean)
    .join(', ');
}

/** Technical parameters; only attributes with use_attr = 1 are shown. */
export function AttributeTable({ attributes }: { attributes: AttributeEntry[] }) {
  const shown = attributes.filter((entry) => entry.use_attr === 1 && valueText(entry) !== '');
  if (shown.length === 0) return null;
  return (
    <table className="cat-attributes">
      <caption className="visually-hidden">Technické parametre</caption>
      <tbody>
        {shown.map((entry) => (
          <tr key={entry.attr_id}>
            <th scope="row">{entry.attr_name}</th>
            <td>{valueText(entry)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
