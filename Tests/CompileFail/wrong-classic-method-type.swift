// Must not compile: a classic `type` that is no method, with no `method` beside it, is an error, never ignored.
// error: type 'KindEndPoint' does not conform to protocol 'APIConfigurable'
import CourierContract

enum KindEndPoint: APIConfigurable {
    case create
    var type: String { "POST" }
    var path: String { "/things" }
}
