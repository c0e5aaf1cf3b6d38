// `JSONValue`, the values documents are read into and schemas are checked against, is part of this
// module's API: users name it without importing the package's internal module.
@_exported import CourierPrimitives
