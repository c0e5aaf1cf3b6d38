// Must not compile: classic parameters of a type Courier cannot read are an error, never ignored.
// error: type 'CountEndPoint' does not conform to protocol 'APIConfigurable'
import CourierContract

enum CountEndPoint: APIConfigurable {
    case count
    var parameters: Int { 3 }
    var path: String { "/count" }
}
