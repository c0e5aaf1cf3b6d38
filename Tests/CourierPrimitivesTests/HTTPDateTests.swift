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

    @Test("a two-digit year more than 50 years ahead is in the past century")
    func twoDigitYear() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027
        #expect(
            HTTPDate.parse("Monday, 01-Jan-77 00:00:00 GMT", now: now)
                == Date(timeIntervalSince1970: 3_376_684_800))
        #expect(
            HTTPDate.parse("Saturday, 01-Jan-78 00:00:00 GMT", now: now)
                == Date(timeIntervalSince1970: 252_460_800))
        #expect(HTTPDate.parse("Sat, 29 Feb 2000 00:00:00 GMT", now: now) != nil)
        #expect(HTTPDate.parse("Sat, 29 Feb 2100 00:00:00 GMT", now: now) == nil, "2100 is not a leap year")
    }

    @Test func formatsAsIMFFixdate() {
        #expect(HTTPDate.format(Self.example) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}
