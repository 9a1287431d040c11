// JSON as the store keeps it: record fields that hold arbitrary data (inputs, results, details, state).
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
