// `JSONValue` is part of this module's API (OpenAPI documents, schema examples); it lives in a small
// module that the mock server shares, so a file importing both sees one type.
@_exported import CourierPrimitives
