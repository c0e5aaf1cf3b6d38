import CourierPrimitives
import Foundation
import Testing

/// RFC 9110 §5.6.7: the three forms of one instant, and what is not an HTTP-date.
struct HTTPDateTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT, the RFC's own example.
    static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",  // IMF-fixdate
        "Sunday, 06-Nov-94 08:49:37 GMT",  // obsolete RFC 850
        "Sun Nov  6 08:49:37 1994",  // asctime
    ])
    func everyFormReadsAsTheSameInstant(_ text: String) {
        #expect(HTTPDate.parse(text) == Self.example, "\(text)")
    }

    @Test(arguments: [
        "", "yesterday", "2015-10-21T07:28:00Z", "Sun, 06 Nov 1994", "Sun, 32 Nov 1994 08:49:37 GMT",
    ])
    func whatIsNotAnHTTPDateIsNil(_ text: String) {
        #expect(HTTPDate.parse(text) == nil, "\(text.debugDescription)")
    }
}
