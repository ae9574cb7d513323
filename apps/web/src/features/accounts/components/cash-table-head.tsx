/** The columns of a table of money put in and taken out: an imported account's balance operations, its cash flows. */
export function CashTableHead() {
  return (
    <thead>
      <tr>
        <th scope="col">Time</th>
        <th scope="col">Type</th>
        <th scope="col" className="text-end">
          Amount
        </th>
        <th scope="col">Comment</th>
      </tr>
    </thead>
  );
}
