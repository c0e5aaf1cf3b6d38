// `JSONValue`, the values documents are read into and schemas are checked against, is part of this
// module's API: users name it without importing the package's internal module.
@_exported import CourierPrimitives
// The schema validator and value generator are this module's API for a document's schemas; they live in
// a module of their own because a declared API's schemas are checked by them too.
@_exported import CourierSchema
