use super::{Base, Holding, holding, transmission_base};
use crate::time::Date;

fn d(text: &str) -> Date {
    text.parse().unwrap()
}

#[test]
fn holding_is_date_to_date_with_leap_days() {
    assert_eq!(holding(d("2013-04-10"), d("2013-07-05")), Holding::Short);
    assert_eq!(holding(d("2013-04-10"), d("2014-04-10")), Holding::Short);
    assert_eq!(holding(d("2013-04-10"), d("2014-04-11")), Holding::Long);
    assert_eq!(holding(d("2012-02-29"), d("2013-02-28")), Holding::Short);
    assert_eq!(holding(d("2012-02-29"), d("2013-03-01")), Holding::Long);
}

#[test]
fn only_2013_and_2014_short_results_go_to_the_general_base() {
    assert_eq!(transmission_base(2013, Some(Holding::Short)), Base::General);
    assert_eq!(transmission_base(2014, Some(Holding::Short)), Base::General);
    assert_eq!(transmission_base(2014, Some(Holding::Long)), Base::Savings);
    assert_eq!(transmission_base(2012, Some(Holding::Short)), Base::Savings);
    assert_eq!(transmission_base(2015, Some(Holding::Short)), Base::Savings);
    assert_eq!(transmission_base(2013, None), Base::Savings);
}
