import CourierTesting

/// The two real transports every client-side reliability test runs over.
typealias TransportUnderTest = CourierTesting.TransportUnderTest

extension TransportUnderTest {
    static var allCases: [TransportUnderTest] { all }
}
