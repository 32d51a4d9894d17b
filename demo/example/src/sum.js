export function sum(values) {
  return values.reduce((total, value) => total + value, 0);
}
