import Testing

@Test func courierCLITestsBuilds() {
    #expect(Bool(true))
}
