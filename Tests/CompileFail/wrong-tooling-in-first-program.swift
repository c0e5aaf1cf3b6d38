// Must not compile: a first program (the declaration language, the manager, a transport) does not see
// the tooling types; operations, schemas and the OpenAPI writer come with `import CourierContractModel`.
// error: cannot find 'OpenAPIWriter' in scope
import Courier
import CourierContract
import CourierCurl

func writeDocument() throws {
    _ = OpenAPIWriter.make(title: "Notes", operations: [])
}
