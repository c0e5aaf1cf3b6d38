// Must compile: a first program declares an operation's credentials without importing the contract
// model; `security:` takes its schemes by their leading-dot names.
import Courier
import CourierContract

enum TicketsAPI: API {
    static func code(id: String) -> Endpoint<String> {
        endpoint(.get, "/codes/{id}", "A ticket's code", security: [.basic, .apiKey("X-API-Key")]) {
            Path("id", id)
        }
    }
    static let samples: [any EndpointDescribing] = [code(id: "t1")]
}
