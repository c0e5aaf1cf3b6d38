import CourierPrimitives
import Foundation
import Testing

/// The shared JSON value's accessors never trap, whatever number a document holds.
struct JSONValueTests {
    @Test func intValueIsNilForNumbersAnIntCannotHold() {
        #expect(JSONValue.double(3).intValue == 3)
        #expect(JSONValue.double(3.5).intValue == nil)
        #expect(JSONValue.double(1e300).intValue == nil, "found by the mapping fuzzer: Int(1e300) trapped")
        #expect(JSONValue.double(-1e300).intValue == nil)
        #expect(JSONValue.double(.nan).intValue == nil)
        #expect(JSONValue.int(42).intValue == 42)
        #expect(JSONValue.string("7").intValue == 7)
    }
}
