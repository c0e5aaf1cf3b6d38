import Testing

@Test func courierCurlTestsBuilds() {
    #expect(Bool(true))
}
