// Must not compile: a classic endpoint's headers of a type Courier cannot read are an error, never ignored.
// error: type 'TokenEndPoint' does not conform to protocol 'APIConfigurable'
import CourierContract

enum TokenEndPoint: APIConfigurable {
    case refresh
    var headers: [String: Int] { ["Retries": 3] }
    var type: RequestType { .POST }
    var path: String { "/token" }
}
