export const fakeOrder = () => 'order';
