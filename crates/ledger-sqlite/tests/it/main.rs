mod store;
