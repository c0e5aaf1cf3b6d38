// `JSONValue` is part of Courier's API (OpenAPI documents, validated bodies); it lives in a small module
// that the mock server shares, so a file importing both sees one type.
@_exported import CourierPrimitives
