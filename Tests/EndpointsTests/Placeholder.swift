import Testing

@Test func endpointsTestsBuilds() {
    #expect(Bool(true))
}
